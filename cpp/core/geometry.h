// Geometry of a hexagonal Trigon board: cells, coordinates, neighbours, vertices, symmetries.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.h"

namespace trigon {

constexpr int kNumStartCells = 6;
constexpr int kNumSymmetries = 12;

// A triangle on the infinite lattice: vertices (a,b),(a+1,b),(a,b+1) when up (t=0),
// (a+1,b),(a,b+1),(a+1,b+1) when down (t=1). Rotations and reflections are linear here.
struct LatticeCell {
    int a, b, t;
    friend bool operator<(const LatticeCell& p, const LatticeCell& q) {
        if (p.a != q.a) return p.a < q.a;
        if (p.b != q.b) return p.b < q.b;
        return p.t < q.t;
    }
    friend bool operator==(const LatticeCell& p, const LatticeCell& q) {
        return p.a == q.a && p.b == q.b && p.t == q.t;
    }
};

// One of the 12 symmetries of the lattice fixing the origin vertex:
// k % 6 rotations by 60 degrees, after a reflection when k >= 6.
LatticeCell transform_cell(const LatticeCell& c, int k);

// The board: a hexagon of side 9 (486 cells) or 8 (384 cells), in Pentobi's coordinates
// (x, y) with y = 0 the top row; text names like "r15" count rows from the bottom.
class Geometry {
public:
    explicit Geometry(int side);

    int side() const { return side_; }
    int width() const { return width_; }
    int height() const { return height_; }
    int num_cells() const { return static_cast<int>(x_.size()); }
    int num_vertices() const { return static_cast<int>(vertex_fan_.size()); }

    int x(int cell) const { return x_[cell]; }
    int y(int cell) const { return y_[cell]; }
    // Cell at (x, y), or -1 when off the board.
    int cell_at(int x, int y) const;
    bool is_up(int cell) const { return lattice_[cell].t == 0; }
    const LatticeCell& lattice(int cell) const { return lattice_[cell]; }
    // Cell for a lattice triangle, or -1 when off the board.
    int cell_of(const LatticeCell& c) const;

    // Cells sharing an edge (up to 3) and only a vertex (up to 9).
    const std::vector<int>& edge_neighbours(int cell) const { return edge_nb_[cell]; }
    const std::vector<int>& vertex_neighbours(int cell) const { return vertex_nb_[cell]; }
    // The 3 vertices of a cell, and the on-board cells around a vertex (up to 6).
    const std::array<int, 3>& cell_vertices(int cell) const { return cell_vertices_[cell]; }
    const std::vector<int>& vertex_fan(int vertex) const { return vertex_fan_[vertex]; }

    // "r15" style names; parse_cell returns -1 for anything that is not a cell of this board.
    std::string cell_name(int cell) const;
    int parse_cell(std::string_view text) const;

    // Start cells in ring order; the opposite of ring index i is i + 3 (mod 6).
    const std::array<int, kNumStartCells>& start_cells() const { return start_cells_; }
    const Bitboard& start_mask() const { return start_mask_; }
    const Bitboard& all_cells() const { return all_cells_; }

    // Image of a cell under symmetry k about the board centre.
    int symmetric_cell(int k, int cell) const { return symmetry_[k][cell]; }

private:
    int side_, width_, height_;
    std::vector<int> x_, y_;
    std::vector<LatticeCell> lattice_;
    std::vector<int> grid_;  // (y * width + x) -> cell or -1
    std::vector<std::vector<int>> edge_nb_, vertex_nb_;
    std::vector<std::array<int, 3>> cell_vertices_;
    std::vector<std::vector<int>> vertex_fan_;
    std::array<int, kNumStartCells> start_cells_{};
    Bitboard start_mask_, all_cells_;
    std::array<std::vector<int>, kNumSymmetries> symmetry_;
    int lattice_a0_ = 0;  // lattice a of x = 0 in row b = 0, for cell_of()
};

// The two boards, built once and shared.
const Geometry& geometry(int side);

}  // namespace trigon
