// Index checks shared by the bindings: the core trusts its indices, so every one that Python
// passes is checked here first (OutOfRange for an index, ValueError for a board size).
#pragma once

#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>

#include "core/position.h"
#include "core/tables.h"

namespace trigon::bindings {

// An index out of its range: raised in Python as trigon_fast.OutOfRangeError, a ValueError as
// every bad input and an IndexError as a list's (module.cpp translates it).
struct OutOfRange : std::out_of_range {
    using std::out_of_range::out_of_range;
};

// "<what> <value> out of range (0..<size - 1>)"
inline OutOfRange out_of_range(const char* what, long long value, long long size) {
    return OutOfRange(std::string(what) + " " + std::to_string(value) + " out of range (0.." + std::to_string(size - 1) + ")");
}

inline void check_side(int side) {
    if (side != 8 && side != 9) throw pybind11::value_error("board side must be 9 or 8");
}

inline void check_colour(int c) {
    if (c < 0 || c >= kNumColours) throw out_of_range("colour index", c, kNumColours);
}

inline void check_cell(const Geometry& g, int cell) {
    if (cell < 0 || cell >= g.num_cells()) throw out_of_range("cell index", cell, g.num_cells());
}

inline void check_placement(const MoveTable& t, int id) {
    if (id < 0 || id >= t.num_placements()) throw out_of_range("placement id", id, t.num_placements());
}

inline void check_symmetry(int k) {
    if (k < 0 || k >= kNumSymmetries) throw out_of_range("symmetry", k, kNumSymmetries);
}

inline void check_piece(int p) {
    if (p < 0 || p >= kNumPieces) throw out_of_range("piece index", p, kNumPieces);
}

}  // namespace trigon::bindings
