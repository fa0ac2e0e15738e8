#include "solver/exact.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "core/thread_group.h"
#include "solver/exact_search.h"
#include "solver/repair.h"
#include "solver/solo.h"

namespace trigon::solver {

namespace {

using namespace exact_detail;

constexpr long long kQuickNodes = 20000;     // the quick exhaustive stage's nodes at most
constexpr double kQuickMinSeconds = 0.01;    // and its least time
constexpr double kQuickShare = 0.004;        // and its share of the time limit
constexpr long long kFinishQuicklyNodes = 2000;  // one colour's all-placed search before branch and bound
constexpr double kGuidedAloneSeconds = 0.05;     // max_placeable's guided dives: at most this long
constexpr double kGuidedAloneShare = 0.05;       // and this share of its time
constexpr double kGuidedMinSeconds = 0.02;        // can_place_all: a turn of the guided search at least
constexpr double kGuidedFirstTurnShare = 0.02;    // and the first turn at least this share of the time limit,
constexpr double kGuidedFirstTurnSeconds = 0.2;   // or this long when that is less
// A turn of the guided search hands this share of its time to repairs of the best layout found so
// far (repair.h): near misses (a solution taken back, its last 8 moves random), 20 seeds each at
// 6, 9, 10 and 12 pieces left, one thread, 5 s: 56 of 80 settled without, 70 at 50%, 70-71 at 70%
// (docs/exact-search.md, "Repairs of the best layout").
// Its repairs go on from layouts that place no fewer triangles than the one they repair (a branch
// and bound of RepairBudget::accept_nodes where a neighbourhood has no complete layout): the same
// near misses 73-74 -> 78 of 80 (300 nodes: 75, 1,000: 76, 10,000: 77).
constexpr double kRepairShare = 0.7;
constexpr long long kRepairStepNodes = 5000;  // a neighbourhood's exhaustive search: nodes at most
constexpr int kExtendTries = 32;  // greedy extensions of the best layout reported when not proven
// One thread: the searches take turns below this many pieces a colour (on average); from there the
// guided search runs first, in turns of its own (turns with the exhaustive search there, before
// the repairs: 16 of 20 near misses found, not 17). Its share of the time changes there too.
constexpr double kGuidedFirstFrom = 12.0;

// The pieces each colour asked has left, on average (those with none left not counted).
double average_pieces_left(const Position& start, std::uint8_t colours) {
    int pieces = 0, n = 0;
    for (int c = 0; c < kNumColours; ++c)
        if ((colours >> c & 1) && start.in_play(c) && start.pieces_left(c)) {
            pieces += std::popcount(start.pieces_left(c));
            ++n;
        }
    return n ? static_cast<double>(pieces) / n : 0.0;
}

// One thread's split of the time between the guided search and the exhaustive search (taking
// turns below twelve pieces, the guided search first from twelve): the guided search's share. Below
// twelve the exhaustive search settles "no"s within seconds; from twelve on it settles nothing in
// minutes, while the guided search finds more "yes"es the longer it runs (near misses at twelve
// left, 5 s: 14 of 20 at 30%, 17 of 20 with all the time). At eleven it was 55% until the repairs
// climbed; since, 30% settles as many near misses (17 of 18, two runs) and more "no"s (random
// games 8 -> 9 of 18, sooner: 4.0 -> 2.7 s, 1.2 -> 0.8 s; search-played 7 of 18 either way).
double guided_share(double average_pieces) { return average_pieces < kGuidedFirstFrom ? 0.3 : 0.8; }

// The guided search's first turn in a run of turns, for a time limit of `limit` seconds.
double first_turn_seconds(double limit) {
    return std::max(kGuidedMinSeconds, std::min(kGuidedFirstTurnSeconds, kGuidedFirstTurnShare * limit));
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Triangles of the pieces colour c has left.
int area_left(const Position& P, int c) {
    int a = 0;
    for (std::uint32_t l = P.pieces_left(c); l; l &= l - 1) a += trigon_pieces()[std::countr_zero(l)].size;
    return a;
}

// The guided search as can_place_all runs it: the colours asked, the triangle anywhere.
SoloOptions guided_options(const ExactOptions& options, double time_limit, int threads) {
    SoloOptions so;
    so.colours = options.colours;
    so.triangle_last = false;
    so.repairs = false;  // (GuidedTurns repairs between turns, on every guided thread)
    so.time_limit = time_limit;
    so.threads = threads;
    so.progress = options.progress;
    return so;
}

// Turns of the guided search, each ending with repairs of the best layout found so far, or every
// other turn of its own (on as many threads as the guided search, each with its own spots). The
// guided search stalls a piece or two short on dense endgames whose complete layouts differ from
// its best one only locally.
class GuidedTurns {
public:
    // `halt` (may be null) ends a turn as `stop` does, and a turn that finds a layout sets it.
    GuidedTurns(const Position& start, const ExactOptions& options, int threads, const std::atomic<bool>* stop,
                std::atomic<bool>* halt = nullptr)
        : start_(start), options_(options), threads_(threads), stop_(stop), halt_(halt) {}

    // One turn of `seconds`: true when it found a complete layout (witness()).
    bool turn(double seconds) {
        const std::uint64_t seed = turn_++;
        SoloOptions so = guided_options(options_, seconds * (1 - kRepairShare), threads_);
        so.seed = seed;
        SoloSearch guided(start_, so);
        guided.start();
        while (!guided.wait_for(0.01))
            if (halted()) guided.stop();
        guided.join();
        nodes_ += guided.stats().nodes;
        if (auto sols = guided.solutions(); !sols.empty()) {
            witness_ = sols.front().moves;
            if (halt_) halt_->store(true);
            return true;
        }
        auto layout = guided.best_partial_moves();
        if (layout_triangles(start_, layout) > best_area_) {
            best_area_ = layout_triangles(start_, layout);
            best_ = layout;
        }
        if (halted()) return false;
        // Every other turn repairs this turn's own best layout (another basin) instead of the best
        // so far: near misses as above, 72 -> 74 and 73 of 80 (its own every turn: 71).
        return repair(seconds * kRepairShare, seed, (seed & 1) ? layout : best_);
    }

    long long nodes() const { return nodes_; }
    int best_area() const { return best_area_; }  // -1 before the first turn
    std::vector<std::pair<int, int>>& best() { return best_; }
    std::vector<std::pair<int, int>>& witness() { return witness_; }

private:
    bool halted() const { return (stop_ && stop_->load()) || (halt_ && halt_->load()); }

    bool repair(double seconds, std::uint64_t seed, std::vector<std::pair<int, int>> base) {
        // (a copy: with accept, a thread that ends may replace best_ while another reads its base)
        std::atomic<bool> own{false};
        std::atomic<bool>* done = halt_ ? halt_ : &own;  // set by the first to find a layout: stops the others
        bool found = false;
        std::mutex mutex;
        auto work = [&](int k) {
            RepairBudget budget;
            budget.seconds = seconds;
            budget.step_nodes = kRepairStepNodes;
            budget.accept = true;
            budget.progress = options_.progress;
            RepairResult rep = repair_layout(start_, options_.colours, base, budget,
                                             seed * 64 + static_cast<std::uint64_t>(k), stop_, done);
            std::lock_guard<std::mutex> lock(mutex);
            nodes_ += rep.nodes;
            if (rep.improved_area > best_area_) {
                best_area_ = rep.improved_area;
                best_ = std::move(rep.improved);
            }
            if (rep.found && !found) {
                found = true;
                witness_ = std::move(rep.witness);
                done->store(true);
            }
        };
        ThreadGroup group([&] { done->store(true); });
        for (int k = 1; k < threads_; ++k) group.start([&, k] { work(k); });
        group.run_here([&] { work(0); });
        group.join();
        return found;
    }

    const Position& start_;
    const ExactOptions& options_;
    int threads_;
    const std::atomic<bool>* stop_;
    std::atomic<bool>* halt_;
    std::uint64_t turn_ = 0;
    long long nodes_ = 0;
    int best_area_ = -1;
    std::vector<std::pair<int, int>> best_, witness_;
};

// The all-placed search's answer: 1 yes (with the witness), 0 no, -1 stopped first.
struct Exhaustive {
    int answer = -1;
    std::vector<std::pair<int, int>> witness;
    long long nodes = 0;
};

// One all-placed search on this thread, run to its end: its answer, witness and nodes.
Exhaustive run_alone(ExactSearch& s) {
    Exhaustive out;
    const bool found = s.run();
    if (!s.aborted()) {
        out.answer = found ? 1 : 0;
        if (found) out.witness = s.witness();
    }
    out.nodes = s.nodes();
    return out;
}

// The all-placed search on `workers` threads: one starts at the root, and a busy worker hands
// its untried moves at its shallowest open depth to a waiting one (work stealing: subtrees
// differ in size by orders of magnitude, a fixed split leaves threads idle). The first "yes"
// stops the others; "no" needs every task searched. A search beside others may share with them
// a packing cache, a node count and a halt flag (set when any of them ends).
Exhaustive exhaustive_search(const Position& start, const ExactOptions& o, const std::atomic<bool>* stop, int workers,
                             SharedPartCache* cache = nullptr, std::atomic<long long>* node_count = nullptr,
                             std::atomic<bool>* shared_halt = nullptr) {
    Exhaustive out;
    if (workers <= 1) {
        ExactSearch s(start, o.colours, ExactSearch::Mode::AllPlaced, o, stop);
        s.share_cache(cache);
        s.join_pool(nullptr, shared_halt, node_count);
        return run_alone(s);
    }
    std::unique_ptr<SharedPartCache> own_cache;
    if (!cache) cache = (own_cache = std::make_unique<SharedPartCache>()).get();
    std::atomic<long long> own_count{0};
    std::atomic<long long>* shared_nodes = node_count ? node_count : &own_count;
    std::atomic<bool> own_halt{false}, aborted{false};
    std::atomic<bool>& halt = shared_halt ? *shared_halt : own_halt;
    TaskPool pool(SplitTask{start, {}, {}, std::nullopt}, halt);
    std::mutex found_mutex;
    auto work = [&] {
        ExactSearch s(start, o.colours, ExactSearch::Mode::AllPlaced, o, stop);
        s.join_pool(&pool, &halt, shared_nodes);
        s.share_cache(cache);
        for (SplitTask task{start, {}, {}, std::nullopt}; pool.take(task);) {
            s.restart(task);
            const bool found = s.run();
            if (s.aborted()) {
                aborted = true;  // (or stopped by a "yes": that one wins below)
                halt = true;
            } else if (found) {
                std::lock_guard<std::mutex> lock(found_mutex);
                if (out.answer != 1) {
                    out.answer = 1;
                    out.witness = s.witness();
                }
                halt = true;
            }
            pool.done();
        }
        std::lock_guard<std::mutex> lock(found_mutex);
        out.nodes += s.nodes();
    };
    ThreadGroup group([&] { halt = true; });
    for (int k = 1; k < workers; ++k) group.start(work);
    group.run_here(work);
    group.join();
    if (out.answer != 1) out.answer = aborted.load() || !pool.all_taken() ? -1 : 0;
    return out;
}

// The all-placed search on `workers` threads in both colour orders (fewest moves first, least
// slack first: each settles endgames the other cannot, by orders of magnitude), the threads
// shared between them (the first order gets the odd one); the first to settle it stops the other.
Exhaustive exhaustive_both_orders(const Position& start, const ExactOptions& o, const std::atomic<bool>* stop, int workers) {
    if (workers <= 1 || !o.both_orders) return exhaustive_search(start, o, stop, workers);
    std::atomic<bool> halt{false};  // the first to end stops the other
    ExactOptions other = o;
    other.least_slack = !o.least_slack;
    SharedPartCache cache;  // (a part's packings do not depend on the order)
    std::atomic<long long> node_count{0};  // (node_limit bounds both)
    Exhaustive first, second;
    ThreadGroup group([&] { halt = true; });
    group.start([&] {
        second = exhaustive_search(start, other, stop, workers / 2, &cache, &node_count, &halt);
        if (second.answer >= 0) halt = true;
    });
    group.run_here([&] {
        first = exhaustive_search(start, o, stop, workers - workers / 2, &cache, &node_count, &halt);
        if (first.answer >= 0) halt = true;
    });
    group.join();
    Exhaustive& out = first.answer >= 0 ? first : second;
    out.nodes = first.nodes + second.nodes;
    return std::move(out);
}

// The layout to report when not proven, and the triangles it places: the guided search's best,
// extended greedily (random 12-left endgames: 1-16 triangles more in Python probes).
void set_best_layout(ExactResult& r, const Position& start, const ExactOptions& options,
                     const std::vector<std::pair<int, int>>& layout) {
    r.best_layout = extend_layout(start, options.colours, layout, kExtendTries, 0);
    r.best_triangles = layout_triangles(start, r.best_layout);
}

// The last stage on several threads: the guided search looks for a "yes" while the exhaustive
// search looks for either answer, both with all the time left; the first to settle it stops the
// other. (One after the other, a near-miss endgame's "yes" can need more than the guided
// search's 30%, and a "no" more than the exhaustive 70%.) Each gets half the threads (the guided
// search at least one). Only at ten pieces a colour or fewer, where a "no" is the exhaustive
// search's to find; with more, the guided search runs first on every thread (guided_share).
ExactResult guided_beside_exhaustive(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop,
                                     Clock::time_point t0, ExactResult r) {
    const double left = options.time_limit > 0 ? std::max(0.01, options.time_limit - since(t0)) : 0.0;
    const int threads = std::min(options.threads, 64);
    const int guided_threads = std::max(1, threads / 2);
    std::atomic<bool> halt{false};  // set by the first to settle it (or a stop): ends the other
    GuidedTurns turns(start, options, guided_threads, stop, &halt);
    const auto begin = Clock::now();
    // The guided search's turns (each with its repairs), doubling: the first as long as on one thread.
    ExactOptions rest = options;
    rest.time_limit = left;
    Exhaustive e;
    ThreadGroup group([&] { halt = true; });
    group.start([&] {
        double slice = first_turn_seconds(left);
        for (; !halt.load() && !(stop && stop->load()); slice *= 2) {
            const double remaining = left > 0 ? left - since(begin) : slice;
            if (remaining <= 0 || turns.turn(std::min(slice, remaining))) break;
        }
        while (!halt.load()) {  // (a stop reaches the exhaustive search through halt)
            if (stop && stop->load()) halt = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    group.run_here([&] { e = exhaustive_both_orders(start, rest, &halt, threads - guided_threads); });
    halt = true;
    group.join();
    r.nodes += e.nodes + turns.nodes();
    if (!turns.witness().empty()) {
        r.answer = 1;
        r.witness = std::move(turns.witness());
    } else if (e.answer >= 0) {
        r.answer = e.answer;
        r.witness = e.witness;
    } else {
        r.answer = -1;
        if (turns.best_area() >= 0) set_best_layout(r, start, options, turns.best());
    }
    r.proven = r.answer >= 0;
    r.seconds = since(t0);
    return r;
}

// One colour's all-placed search with a small node budget: answer 1 with the layout (as
// max_placeable reports it), 0 proven short, -1 when the budget ran out first.
ExactResult finish_quickly(const Position& start, int colour, const ExactOptions& options, const std::atomic<bool>* stop) {
    ExactOptions o = options;
    o.node_limit = options.node_limit > 0 ? std::min(options.node_limit, kFinishQuicklyNodes) : kFinishQuicklyNodes;
    ExactSearch s(start, static_cast<std::uint8_t>(1u << colour), ExactSearch::Mode::AllPlaced, o, stop);
    const bool found = s.run();
    ExactResult r;
    r.nodes = s.nodes();
    if (s.aborted()) return r;
    r.answer = found ? 1 : 0;
    r.proven = true;
    r.witness = found ? s.witness() : std::vector<std::pair<int, int>>{};
    r.max_triangles = found ? area_left(start, colour) : -1;  // a "no" says short, not by how much
    return r;
}

ExactResult place_all_stages(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop) {
    const auto t0 = Clock::now();
    const double limit = options.time_limit > 0 ? options.time_limit : 10.0;  // (the shares' base without one)
    ExactResult r;
    if (options.heuristic) {
        // Tight endgames are settled by a short exhaustive search before anything else: at most
        // 20,000 nodes and 1% of the time (nodes cost about 16 us: on the positions that are a
        // "yes" the guided search finds, the whole 20,000 were most of the answer's time).
        ExactOptions quick = options;
        quick.heuristic = false;
        quick.threads = 1;  // (too short to split)
        const bool only_stage = options.node_limit > 0 && options.node_limit <= kQuickNodes;  // it is all there is
        quick.node_limit = only_stage ? options.node_limit : kQuickNodes;
        if (!only_stage) {
            quick.time_limit = std::max(kQuickMinSeconds, limit * kQuickShare);
            if (options.time_limit > 0) quick.time_limit = std::min(quick.time_limit, options.time_limit);
        }
        r = place_all_stages(start, quick, stop);
        if (r.answer >= 0 || only_stage) {
            r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            return r;
        }
        // Colour by colour, with max_placeable's branch and bound (it settles one colour far
        // sooner than the all-placed search: 0.3 s against 2 s, or proven against not, on
        // endgames of search-played games). A colour that cannot place everything alone cannot
        // with the others either; witnesses of single colours on disjoint cells combine.
        std::vector<int> cs;
        for (int c = 0; c < kNumColours; ++c)
            if ((options.colours >> c & 1) && start.in_play(c) && start.pieces_left(c)) cs.push_back(c);
        ExactOptions single = options;
        if (single.time_limit > 0)
            single.time_limit = cs.size() == 1 ? std::max(0.01, options.time_limit - since(t0))
                                               : options.time_limit * 0.1;
        Bitboard used;
        bool disjoint = true, all_yes = true;
        std::vector<std::pair<int, int>> joined;
        for (int c : cs) {
            // A colour that can finish usually shows it within a few hundred nodes of the
            // all-placed search (1 ms against max_placeable's 15-20 ms at 12 pieces left).
            ExactResult one = finish_quickly(start, c, single, stop);
            if (one.answer < 0) {
                const long long tried = one.nodes;
                one = max_placeable(start, c, single, stop);
                one.nodes += tried;
            }
            r.nodes += one.nodes;
            const bool full = one.max_triangles == area_left(start, c);
            if (one.proven && !full) {
                r.answer = 0;
                r.proven = true;
                r.seconds = since(t0);
                return r;
            }
            all_yes = all_yes && full;
            for (auto [col, id] : one.witness) {
                disjoint = disjoint && !used.intersects(start.table().cells_mask(id));
                used |= start.table().cells_mask(id);
                joined.push_back({col, id});
            }
        }
        if (all_yes && disjoint) {
            r.answer = 1;
            r.proven = true;
            r.witness = joined;
            r.seconds = since(t0);
            return r;
        }
        if (cs.size() == 1) {  // max_placeable had the whole budget: not proven either way
            r.answer = -1;
            r.proven = false;
            r.seconds = since(t0);
            return r;
        }
    }
    // On several threads, with more than ten pieces a colour the guided search comes first on
    // every thread (side by side, its one thread found 17 of 20 twelve-left near misses in 5 s;
    // on two, 19 of 20; at eleven left, 54 positions, as many settled side by side, 27, with one
    // near miss fewer).
    const double average_pieces = average_pieces_left(start, options.colours);
    const double share = guided_share(average_pieces);
    if (options.heuristic && options.threads >= 2 && average_pieces < 11.0)
        return guided_beside_exhaustive(start, options, stop, t0, r);
    const int threads = std::min(options.threads, 64);
    // The guided search (a "yes" is usually found far sooner by it) gets its share of the time:
    // from twelve pieces a colour, or on several threads, first (in turns doubling from the first
    // turn's length below), then the exhaustive search;
    // below twelve on one thread they take turns, the exhaustive search pausing at 40,000 nodes
    // and each time its nodes double for a turn of the guided search (its share against the
    // exhaustive search's time since the last turn; each turn its own seed). So a "no" that the
    // exhaustive search settles in a tenth of a second is not kept waiting behind the guided
    // search's whole share (3 s of the default 10 s), and no exhaustive work is repeated. The
    // first turn gets 2% of the time limit, 0.2 s at most (or its share against the stages
    // before, if more): the near misses the guided search finds in a tenth of a second are not
    // kept waiting behind 40,000 exhaustive nodes.
    GuidedTurns guided(start, options, threads, stop);
    // A turn of the guided search and its repairs: true when it found a layout (r then says yes).
    auto guided_turn = [&](double seconds) {
        const long long before = guided.nodes();
        const bool found = guided.turn(seconds);
        r.nodes += guided.nodes() - before;
        if (found) {
            r.answer = 1;
            r.proven = true;
            r.witness = std::move(guided.witness());
        }
        return found;
    };
    auto time_left = [&] { return options.time_limit > 0 ? options.time_limit - since(t0) : 1e9; };
    const bool turns = options.heuristic && threads == 1 && average_pieces < kGuidedFirstFrom;
    const double ratio = share / (1.0 - share);
    if (options.heuristic) {
        const double first = !turns ? (options.time_limit > 0 ? options.time_limit * share : 5.0)
                                    : std::max(ratio * since(t0), first_turn_seconds(limit));
        if (!turns) {
            // Its share in turns of its own, doubling from the first turn's length (the last takes
            // what is left when less than two turns' worth): each turn's repairs start soon from a
            // layout the guided search found quickly. One long turn kept the answer waiting behind
            // 30% of it: near misses at 12 left (20 seeds, 5 s) 19 -> 20 found, median 0.14 ->
            // 0.08 s; three colours of random and search-played 12-left games (48 questions)
            // 40 -> 42 "yes", median 1.25 -> 0.12 s.
            const auto begin = Clock::now();
            double slice = first_turn_seconds(limit);
            for (;; slice *= 2) {
                const double remaining = std::min(first - since(begin), time_left());
                if (remaining <= 0.005 || (stop && stop->load())) break;
                if (guided_turn(remaining < 2 * slice ? remaining : slice)) {
                    r.seconds = since(t0);
                    return r;
                }
            }
        } else if (guided_turn(std::min(first, std::max(0.01, time_left())))) {
            r.seconds = since(t0);
            return r;
        }
    }
    ExactOptions rest = options;
    if (options.time_limit > 0) rest.time_limit = std::max(0.01, time_left());
    bool yes = false;  // an interlude's guided turn found a layout
    Exhaustive e;
    if (turns && threads == 1) {
        ExactSearch s(start, rest.colours, ExactSearch::Mode::AllPlaced, rest, stop);
        auto mark = Clock::now();  // the exhaustive search's time since the last turn starts here
        s.set_interlude(2 * kQuickNodes, [&] {
            if (stop && stop->load()) return false;
            yes = guided_turn(std::min(std::max(kGuidedMinSeconds, ratio * since(mark)), std::max(0.01, time_left())));
            mark = Clock::now();
            return yes;
        });
        e = run_alone(s);
    } else {
        e = exhaustive_both_orders(start, rest, stop, threads);
    }
    r.nodes += e.nodes;
    if (yes) {
        r.seconds = since(t0);
        return r;
    }
    r.answer = e.answer;
    r.proven = r.answer >= 0;
    if (r.answer == 1) r.witness = std::move(e.witness);
    if (!r.proven && guided.best_area() >= 0) set_best_layout(r, start, options, guided.best());
    r.seconds = since(t0);
    return r;
}

}  // namespace

ExactResult can_place_all(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop) {
    ExactResult r = place_all_stages(start, options, stop);
    if (r.answer == 1) {
        r.best_layout = r.witness;
        r.best_triangles = 0;
        for (int c = 0; c < kNumColours; ++c)
            if ((options.colours >> c & 1) && start.in_play(c)) r.best_triangles += area_left(start, c);
    }
    return r;
}

ExactResult max_placeable(const Position& start, int colour, const ExactOptions& options,
                          const std::atomic<bool>* stop) {
    const auto t0 = Clock::now();
    const auto mask = static_cast<std::uint8_t>(1u << colour);
    ExactResult r;
    auto finish = [&](const ExactSearch& s) {
        r.proven = !s.aborted();
        r.max_triangles = s.best_area();
        r.witness = s.witness();
        r.nodes += s.nodes();
        r.seconds = since(t0);
        return r;
    };
    if (!options.heuristic) {
        ExactSearch s(start, mask, ExactSearch::Mode::MaxArea, options, stop);
        s.run();
        return finish(s);
    }
    // Most questions are settled within a few thousand nodes of branch and bound.
    ExactOptions quick = options;
    quick.colours = mask;
    quick.node_limit = options.node_limit > 0 ? std::min(options.node_limit, kQuickNodes) : kQuickNodes;
    auto first = std::make_unique<ExactSearch>(start, mask, ExactSearch::Mode::MaxArea, quick, stop);
    first->run();
    if (!first->aborted() || (options.node_limit > 0 && options.node_limit <= kQuickNodes)) return finish(*first);
    r.nodes = first->nodes();
    int best = first->best_area();
    std::vector<std::pair<int, int>> layout = first->witness();
    first.reset();
    // A colour that can place everything in a big open region shows it within a few guided
    // dives (an endgame of 14 pieces: 15 nodes), where branch and bound, whose bound there is
    // loose, can search for a minute; the guided search's best also gives it a start.
    const double limit = options.time_limit > 0 ? options.time_limit : 10.0;
    SoloSearch guided(start, guided_options(quick, std::min(kGuidedAloneSeconds, limit * kGuidedAloneShare), 1));
    guided.start();
    while (!guided.wait_for(0.005))
        if (stop && stop->load()) guided.stop();
    guided.join();
    r.nodes += guided.stats().nodes;
    const auto sols = guided.solutions();
    std::vector<std::pair<int, int>> dive = sols.empty() ? guided.best_partial_moves() : sols.front().moves;
    std::erase_if(dive, [&](const std::pair<int, int>& m) { return m.first != colour; });
    if (const int dive_area = layout_triangles(start, dive); dive_area > best) {
        best = dive_area;
        layout = std::move(dive);
    }
    ExactOptions rest = options;
    if (options.time_limit > 0) rest.time_limit = std::max(0.01, options.time_limit - since(t0));
    if (options.node_limit > 0) rest.node_limit = std::max(1LL, options.node_limit - r.nodes);
    ExactSearch s(start, mask, ExactSearch::Mode::MaxArea, rest, stop);
    s.set_best(best, std::move(layout));
    if (best < area_left(start, colour)) s.run();  // (else the layout places everything: nothing better)
    return finish(s);
}

}  // namespace trigon::solver
