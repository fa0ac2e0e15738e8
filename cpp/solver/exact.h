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

namespace trigon::solver {

struct ExactOptions {
    std::uint8_t colours = 0xF;      // the colours that go on placing (others stop)
    double time_limit = 10.0;        // seconds; <= 0: none
    long long node_limit = 0;        // 0: none
    bool heuristic = true;           // can_place_all: the guided solo search for a share of the time
                                     // (30% at ten pieces a colour or fewer, up to 80% from twelve);
                                     // max_placeable: a few guided dives when 20,000 nodes do not settle it
    // can_place_all: >= 2 runs the guided search (half the threads, at least one) beside the
    // exhaustive one (the rest; without the heuristic, all of them); the exhaustive search's
    // threads share out its tree, a busy one handing untried moves to an idle one.
    int threads = 1;
    // The all-placed search takes next the colour with fewest legal moves, or (least_slack) the one
    // whose reach exceeds the area of its pieces left by least: each settles endgames the other cannot.
    bool least_slack = false;
    // The exhaustive search skips a residual problem it met before (each thread its own table
    // of residual_capacity keys at most, 16 bytes each; 2x that in slots).
    bool transpositions = true;
    std::size_t residual_capacity = 1u << 20;
    bool both_orders = true;  // with two exhaustive threads or more: half take the other order
                              // (the first to settle it stops the other)
};

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
