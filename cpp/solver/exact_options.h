// The options of the exact questions (exact.h), apart so that the exhaustive search under them
// (exact_search.h) and the repairs can read them without looking up at the staged driver.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

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
    // Where a caller watches progress: every search of the question (exhaustive, guided, repairs)
    // adds its nodes here as it goes, in steps of a few hundred (relaxed: a progress figure).
    std::atomic<long long>* progress = nullptr;
};

}  // namespace trigon::solver
