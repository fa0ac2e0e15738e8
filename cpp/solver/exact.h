// Exact questions from a position, when the other colours stop: can every remaining piece of
// some colours still be placed, and how many triangles can one colour still place alone.
// Exhaustive depth-first search with sound bounds: each colour's reach, and the cells the pieces
// left can still cover (best packings of the small parts of the reach, the few small pieces;
// for one colour alone, what its pieces' edges leave room for);
// "unknown" when the node or time limit ends it first. On several threads it is shared out by
// work stealing: a "no" searches the same tree as on one.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"
#include "solver/exact_options.h"

namespace trigon::solver {

struct ExactResult {
    int answer = -1;  // can_place_all: 1 yes, 0 no (proven), -1 not proven either way
    bool proven = false;                       // max_placeable: the maximum is exact
    int max_triangles = 0;                     // max_placeable: best found (exact when proven)
    std::vector<std::pair<int, int>> witness;  // (colour, id) legal in this order, others passing
    // can_place_all: the most triangles of the colours' pieces left that one layout found placed
    // (the witness's when yes; -1 when the search ended before the guided search ran), and it.
    int best_triangles = -1;
    std::vector<std::pair<int, int>> best_layout;
    long long nodes = 0;
    double seconds = 0;
};

ExactResult can_place_all(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop = nullptr);
ExactResult max_placeable(const Position& start, int colour, const ExactOptions& options,
                          const std::atomic<bool>* stop = nullptr);

}  // namespace trigon::solver
