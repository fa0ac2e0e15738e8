// Monte-Carlo tree search for every Trigon variant: one shared tree, N worker threads with
// virtual loss (a visit is counted on the way down, its value added on the way back), per-thread
// Position copies and random generators. Each colour maximises the result of its side.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/position.h"
#include "core/random.h"
#include "search/node_store.h"

namespace trigon::search {

enum class PlayoutKind : std::uint8_t {
    Uniform,  // the core's RandomPlayout: uniform among all legal moves (incremental move sets)
    Sampled,  // SampledPlayout: random attach point, piece and placement
};

struct Params {
    // Side (player or team) of each colour: 0,1,2,3 for four players; 0,1,0,1 for two players
    // and teams (a side's result is the sum of its colours' scores).
    std::array<std::int8_t, kNumColours> side_of_colour{0, 1, 2, 3};
    int threads = 1;
    std::uint64_t seed = 0;
    long max_simulations = 0;  // 0: no limit
    double max_seconds = 0;    // 0: no limit (at least one limit, or a stop, must end the search)
    std::size_t max_nodes = std::size_t{1} << 23;  // node budget: no expansion beyond it
    float exploration = 0.08f;     // UCT constant
    float prior_weight = 2.0f;     // pseudo-visits given to a move's prior value
    bool use_priors = true;        // piece-size prior (else 0.5 for every move)
    float attach_prior = 0.0f;     // prior bonus for own new attach points (0: off)
    float block_prior = 0.05f;     // prior bonus for covering opponents' attach points (0: off)
    float score_weight = 0.05f;    // share of the value taken by the score margin
    int expand_threshold = 4;      // a leaf is expanded on its visit number threshold + 1
    PlayoutKind playout = PlayoutKind::Uniform;  // sampled: no measured gain over it
    float playout_large_bias = 0.0f;  // sampled playouts: prefer larger pieces (0..1, 0: off)
    int playout_give_up = 0;  // sampled playouts: a colour is out after this many failed samples (0: exact)
    bool reuse_tree = true;        // keep the subtree of the new position between searches
    long progress_every_simulations = 0;  // 0: off
    double progress_every_seconds = 0;    // 0: off
    // Nodes count visits in 32 bits: the search ends, as at a limit, once the root (the most
    // visited node, reused visits included) has this many (room left for the threads in flight).
    std::uint32_t max_root_visits = 0xFFFFFFFFu - (1u << 20);
};

// Simulation counts of the strength levels 1..9 (Pentobi's counts for Trigon).
long level_simulations(int level);
constexpr int kMinLevel = 1;
constexpr int kMaxLevel = 9;

struct MoveInfo {
    int move = -1;
    std::uint32_t visits = 0;  // tree visits, including those reused from an earlier search
    float value = 0;           // mean value for the side to move, 0..1
    float prior = 0;
    std::array<float, kNumColours> value_per_colour{};  // this search's simulations only
    std::array<float, kNumColours> score_per_colour{};
};

struct Analysis {
    int to_move = -1;
    int best_move = -1;
    std::vector<MoveInfo> moves;  // searched root moves, most visited first
    std::vector<int> pv;          // principal variation (most visited line)
    std::vector<int> pv_colours;
    std::array<float, kNumColours> value{};           // position value per colour, 0..1
    std::array<float, kNumColours> expected_score{};  // mean final score per colour
    long simulations = 0;   // this search
    long reused_visits = 0;  // root visits inherited from the previous search
    double seconds = 0;
    std::size_t nodes = 0;
    bool forced = false;    // a single legal move: returned without search
    bool stopped = false;   // ended by stop() or the poll callback
};

class GameOverError : public std::invalid_argument {
public:
    GameOverError() : std::invalid_argument("the game is over: there is no move to search") {}
};

class Searcher {
public:
    using Poll = std::function<bool()>;  // called every few ms from the calling thread; false stops
    using Progress = std::function<void(const Analysis&)>;

    Searcher();
    ~Searcher();

    // Searches `pos` within the limits of `params`. Throws GameOverError for a finished game,
    // std::invalid_argument while another run() of this searcher is going on (one tree, one search).
    // `poll` and `progress` run on the calling thread while the workers search. `stops_seen`:
    // stop_count() when the caller's own call began; a stop() asked since ends this search too
    // (else a stop landing before the search starts is lost).
    Analysis run(const Position& pos, const Params& params, const Poll& poll = {}, const Progress& progress = {},
                 std::optional<std::uint64_t> stops_seen = {});
    // Ends a running search soon (any thread); run() returns the best move so far.
    void stop() {
        stop_count_.fetch_add(1);  // (first: run() reads it after clearing stop_)
        halt();
    }
    // Stops asked so far (any thread).
    std::uint64_t stop_count() const { return stop_count_.load(); }
    // Forgets the tree (not while a search runs: std::invalid_argument).
    void clear();

    // (any thread, while a search runs too: the tree is swapped under store_mutex_)
    std::size_t nodes() const {
        std::lock_guard<std::mutex> lock(store_mutex_);
        return store_ ? store_->used() : 0;
    }
    std::size_t memory_bytes() const {
        std::lock_guard<std::mutex> lock(store_mutex_);
        return store_ ? store_->bytes() : 0;
    }
    static constexpr std::size_t kNodeBytes = sizeof(Node);

private:
    struct RootStat {
        std::atomic<std::uint32_t> count{0};
        std::array<std::atomic<double>, kNumColours> value{};
        std::array<std::atomic<double>, kNumColours> score{};
    };
    struct Worker;

    void halt() { stop_.store(true); }  // ends this search (a limit, the poll, a failure): not counted as a stop()
    void worker_loop(int index);
    void simulate(Worker& w);
    bool expand(std::uint32_t node, const Position& pos, MoveList& ml);
    bool try_reuse(const Position& pos, const Params& params);
    void compact(std::uint32_t new_root);
    Analysis snapshot(double seconds) const;
    float prior_of(const MoveTable& t, int id, const Bitboard& own_dead, const Bitboard& theirs) const;

    std::unique_ptr<NodeStore> store_;
    std::uint32_t root_ = 0;
    std::unique_ptr<Position> root_pos_;
    Params params_;
    std::chrono::steady_clock::time_point deadline_;  // of a search with a time limit
    Params tree_params_;  // params the tree was built with (reuse needs the same values)
    std::vector<std::unique_ptr<RootStat>> root_stats_;
    std::array<std::atomic<double>, kNumColours> total_value_{}, total_score_{};
    std::atomic<long> sims_started_{0}, sims_done_{0};
    long reused_visits_ = 0;
    std::atomic<bool> stop_{false}, store_full_{false};
    std::atomic<std::uint64_t> stop_count_{0};
    mutable std::mutex store_mutex_;    // held while store_ is replaced, and by nodes() / memory_bytes()
    std::atomic<bool> running_{false};  // run() is going on
    std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace trigon::search
