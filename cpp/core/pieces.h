// The 22 Trigon pieces: all free polyiamonds of 1..6 triangles, generated, with Pentobi's names.
#pragma once

#include <string>
#include <vector>

#include "geometry.h"

namespace trigon {

constexpr int kNumPieces = 22;
constexpr int kMaxPieceSize = 6;
constexpr int kTrianglesPerColour = 110;

struct PieceShape {
    std::string name;
    int size;
    // Every distinct fixed form (rotations and reflections, up to translation),
    // each normalised to min a = min b = 0 and sorted.
    std::vector<std::vector<LatticeCell>> orientations;
};

// Canonical key of a polyiamond (the least normalised form over the 12 symmetries),
// written "a,b,t;a,b,t;...". Equal keys mean the same free piece.
std::string canonical_key(const std::vector<LatticeCell>& cells);

// The pieces in Pentobi's order, largest first: I6 L6 V S P6 F W A6 G Y X O I5 L5 C5 P5 I4 C4 A4 I3 2 1.
const std::vector<PieceShape>& trigon_pieces();

}  // namespace trigon
