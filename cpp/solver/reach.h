// Where a colour can still go: the cells it could ever cover from a position, and whether a
// piece fits there. Sound for both solvers: the exhaustive search prunes on it (exact_search),
// the solo solver's dives stop on it (solo).
#pragma once

#include <cstdint>
#include <vector>

#include "core/position.h"

namespace trigon::solver {

constexpr std::uint16_t kNoFit = 0xFFFF;  // fit_inside: no placement of the piece fits

// Per cell: the cells touching it, at an edge or a vertex.
std::vector<Bitboard> touch_masks(const Geometry& geo);

// Cells colour c could ever cover: cells of `fr` (its free cells) joined to its seed cells
// through chains of touching cells of `fr` at most area - 1 steps long (the colour's new cells
// form such a chain from a seed it covers to any cell it covers; `area`: its pieces left).
Bitboard reach_of(const Position& P, int c, const Bitboard& fr, int area, const std::vector<Bitboard>& touch);

// A placement of `piece` inside `reach`, or kNoFit. Only placements whose lowest cell lies in
// reach are looked at (reach is a small part of the board in endgames).
std::uint16_t fit_inside(const MoveTable& t, const Bitboard& reach, int piece);

}  // namespace trigon::solver
