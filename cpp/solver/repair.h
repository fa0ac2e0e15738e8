// From a layout that places nearly everything to one that places everything: large neighbourhood
// search. Each step takes out the layout's moves around one spot and lets the exhaustive search
// (exact_search.h, a small node budget) place every piece left from there. The guided search
// stalls a piece or two short on dense endgames whose complete layouts differ from its best one
// only locally. Internal to the solver: exact.cpp runs it after turns of the guided search.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace trigon::solver {

struct RepairResult {
    bool found = false;
    std::vector<std::pair<int, int>> witness;  // (colour, id), legal in this order, when found
    long long nodes = 0;                       // the exhaustive searches' nodes, in all
    int steps = 0;                             // neighbourhoods searched
    // With RepairBudget::accept: the layout the steps ended on ((colour, id), legal in this order),
    // when it places more than the one given (else empty), and its triangles.
    std::vector<std::pair<int, int>> improved;
    int improved_area = 0;
};

// Triangles a layout ((colour, placement id) pairs) places.
int layout_triangles(const Position& P, const std::vector<std::pair<int, int>>& layout);

// Plays onto P, in passes until none is left to play, each move of `moves` ((colour, id)) not yet
// `taken` once it is legal there (the moves of piece `held` held back; -1: none), marking it taken
// and appending it to `played`: an order legal from P for a layout legal colour by colour.
void play_when_legal(Position& P, const std::vector<std::pair<int, int>>& moves, std::vector<char>& taken,
                     std::vector<std::pair<int, int>>& played, int held = -1);

// `layout` ((colour, id) pairs legal in order from `start`) with moves appended that place more
// of the `colours`' pieces: greedy, each colour in turn its biggest piece where it leaves fewest
// of its own free cells next to it, `tries` times (after the first with random ties, from
// `seed`); the longest kept. Only for reporting: a layout that cannot be completed still shows
// how much can be placed (the guided search's dives end where their first colour is stuck).
std::vector<std::pair<int, int>> extend_layout(const Position& start, std::uint8_t colours,
                                               const std::vector<std::pair<int, int>>& layout, int tries,
                                               std::uint64_t seed);

// How long repair_layout goes on: for `seconds` (> 0), or until its searches have spent `nodes`
// (> 0: then, on one thread, it does the same for the same seed), whichever ends it first; each
// neighbourhood's search has at most `step_nodes`.
struct RepairBudget {
    double seconds = 0;
    long long nodes = 0;
    long long step_nodes = 5000;
    // Where no complete layout is found in a neighbourhood, a branch and bound of accept_nodes
    // looks for one that places as many triangles or more; the layout goes on from it (a large
    // neighbourhood search that climbs, and walks across plateaus, instead of staying put).
    bool accept = false;
    long long accept_nodes = 3000;
    std::atomic<long long>* progress = nullptr;  // nodes added as they are searched (ExactOptions::progress)
};

// Neighbourhoods of `layout` ((colour, id) pairs legal colour by colour from `start`, the colours
// in `colours` placing) searched within `budget` (or until `stop` or `halt`, either may be null);
// `seed` picks the spots. Neighbourhoods lie around the cells the layout leaves empty, 12 to 42
// triangles of its moves taken out.
RepairResult repair_layout(const Position& start, std::uint8_t colours, const std::vector<std::pair<int, int>>& layout,
                           const RepairBudget& budget, std::uint64_t seed, const std::atomic<bool>* stop,
                           const std::atomic<bool>* halt = nullptr);

}  // namespace trigon::solver
