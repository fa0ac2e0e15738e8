// Index checks shared by the bindings: the core trusts its indices, so every one that Python
// passes is checked here first (IndexError for an index, ValueError for a board size).
#pragma once

#include <pybind11/pybind11.h>

#include "core/position.h"
#include "core/tables.h"

namespace trigon::bindings {

inline void check_side(int side) {
    if (side != 8 && side != 9) throw pybind11::value_error("board side must be 9 or 8");
}

inline void check_colour(int c) {
    if (c < 0 || c >= kNumColours) throw pybind11::index_error("colour index must be 0..3");
}

inline void check_cell(const Geometry& g, int cell) {
    if (cell < 0 || cell >= g.num_cells()) throw pybind11::index_error("cell index out of range");
}

inline void check_placement(const MoveTable& t, int id) {
    if (id < 0 || id >= t.num_placements()) throw pybind11::index_error("placement id out of range");
}

inline void check_symmetry(int k) {
    if (k < 0 || k >= kNumSymmetries) throw pybind11::index_error("symmetry must be 0..11");
}

inline void check_piece(int p) {
    if (p < 0 || p >= kNumPieces) throw pybind11::index_error("piece index must be 0..21");
}

}  // namespace trigon::bindings
