// A pattern puzzle in local numbering: the placements inside the region, found and ordered for
// the searches in one pass (what a dancing-links solver's matrix is).
#pragma once

#include <vector>

#include "solver/pattern_common.h"

namespace trigon::solver::pattern_detail {

// Fills `lp` for the region `cells` (board cells in ascending order) and the pieces `piece_of`
// with `copies` each: every placement inside the region, the cells numbered along the sweep (one
// of the lattice's three row directions) whose placements span the fewest ranks (a thin frontier,
// few shapes of uncovered set), the placements ordered by their lowest cell, then piece (the order
// the frontier search walks; the MRV search breaks its ties along the sweep, which keeps the
// uncovered sets frontier-like and a cell's placements in few words). Returns a region cell that
// no placement covers (the lowest), or -1; `lp` is complete only when it returns -1.
int make_local_puzzle(const MoveTable& t, const std::vector<int>& cells, std::vector<int> piece_of,
                      std::vector<int> copies, LocalPuzzle& lp);

}  // namespace trigon::solver::pattern_detail
