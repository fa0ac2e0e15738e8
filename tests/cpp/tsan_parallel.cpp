// ThreadSanitizer driver of everything that runs on several threads: the parallel search (2-4
// workers, progress snapshots read while workers write, stop from another thread, tree reuse,
// a node budget that fills, sampled playouts), the parallel solo solver (racing workers, one
// of them repairing the shared best layout from a position, several solutions, stats polled
// while running, stop from another thread), batched self-play, the threaded endgame questions,
// and the thread group under them all (a body that throws, a thread that fails to start, a
// poll that throws). Built and run by .ci/sanitize (see there for the compile line):
//   tsan_parallel [all|search|solver|batch|exact|group]   # prints "ok", and TSan prints no report
// It also checks results (legal moves, solutions that replay), so a race that corrupts a result
// without a report still fails. Exit status 0 on success.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/thread_group.h"
#include "search/batch.h"
#include "search/mcts.h"
#include "solver/exact.h"
#include "solver/solo.h"

using namespace trigon;

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAIL: %s\n", what);
        ++failures;
    }
}

bool is_legal(const Position& p, int id) { return id >= 0 && p.check(p.to_move(), id) == Illegal::None; }

// Whether `moves` ((colour, id), in turn order) replay legally from `start`.
bool replays_legally(const Position& start, const std::vector<std::pair<int, int>>& moves) {
    Position q = start;
    for (auto [c, id] : moves) {
        if (q.to_move() != c || !is_legal(q, id)) return false;
        q.play(id);
    }
    return true;
}

// A near miss: a solution's first moves (all but `back` + `replaced`), then `replaced` moves
// picked by a linear congruential generator from `lcg` (passes where none is left).
Position near_miss(const Position& start, const std::vector<std::pair<int, int>>& solution, std::size_t back,
                   int replaced, std::uint64_t lcg) {
    Position q = start;
    for (std::size_t k = 0; k + back + replaced < solution.size(); ++k) q.play(solution[k].second);
    MoveList ml;
    for (int k = 0; k < replaced && !q.is_over(); ++k) {
        q.generate(q.to_move(), ml);
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        q.play(ml.size ? ml.moves[(lcg >> 33) % ml.size] : kPass);
    }
    return q;
}

void search_games() {
    for (int side : {9, 8}) {
        Rules r;
        r.side = side;
        if (side == 8) r.colours = 7;
        Position p(r);
        search::Searcher s;
        for (int k = 0; k < 8 && !p.is_over(); ++k) {
            search::Params prm;
            prm.max_simulations = 300;
            prm.threads = 2 + (k % 3);
            prm.seed = static_cast<std::uint64_t>(k);
            prm.expand_threshold = k % 3;
            prm.progress_every_simulations = 40;  // snapshots of the tree while workers write it
            if (k == 3) prm.max_nodes = 3000;     // the budget fills: expansion stops, search goes on
            if (k == 4) prm.playout = search::PlayoutKind::Sampled;
            long seen = 0;
            auto a = s.run(p, prm, {}, [&](const search::Analysis& x) { seen = x.simulations; });
            expect(is_legal(p, a.best_move), "search move is legal");
            expect(a.simulations == prm.max_simulations || a.forced, "search ran its simulations");
            (void)seen;
            if (k == 5) {  // stop from another thread during a long search
                search::Params q = prm;
                q.max_simulations = 0;
                q.max_seconds = 30;
                std::thread t([&] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(60));
                    s.stop();
                });
                auto b = s.run(p, q);
                t.join();
                expect(b.stopped && b.seconds < 10, "stop() ends the search");
                expect(is_legal(p, b.best_move), "stopped search's move is legal");
            }
            p.play(a.best_move);  // the next search reuses the subtree
        }
    }
    {  // visits count in 32 bits: the search ends at its root-visit cap, as at a limit, not past it
        Position p{Rules{}};
        search::Searcher s;
        search::Params prm;
        prm.threads = 3;
        prm.max_seconds = 30;
        prm.max_root_visits = 500;
        auto a = s.run(p, prm);
        expect(!a.stopped && a.seconds < 10, "the root-visit cap ends the search as a limit");
        expect(a.simulations >= 490 && a.simulations <= 500 + prm.threads, "the root-visit cap: its simulations");
        expect(is_legal(p, a.best_move), "capped search's move is legal");
        prm.max_seconds = 0;
        prm.max_simulations = 1000;
        auto again = s.run(p, prm);  // the reused root is at its cap already: no simulation more
        expect(again.simulations <= prm.threads && is_legal(p, again.best_move), "a root at its cap searches no further");
    }
    std::printf("search: ok\n");
}

void solver_runs() {
    Rules r;  // the solo puzzle: four colours on the big board
    Position start(r);
    for (int threads : {2, 4}) {
        solver::SoloOptions o;
        o.threads = threads;
        o.seed = static_cast<std::uint64_t>(threads);
        o.count = 2;
        o.time_limit = 60;
        solver::SoloSearch search(start, o);
        search.start();
        while (!search.wait_for(0.005)) (void)search.stats();  // read while the workers write
        search.join();
        auto sols = search.solutions();
        expect(sols.size() == 2, "solver found two solutions");
        for (const auto& sol : sols)
            expect(replays_legally(start, sol.moves) && sol.complete, "solution replays legally");
    }
    {  // from a near miss (a solution taken back to 6 pieces a colour, 8 moves replaced): the
       // first worker repairs the shared best layout while the others restart, stats polled
        solver::SoloOptions o;
        o.seed = 6;
        o.time_limit = 60;
        const auto sol = solver::solve_solo(start, o);
        expect(sol.complete, "solver: a solution to take back");
        const Position q = near_miss(start, sol.moves, 24, 8, 99);
        o.threads = 3;
        o.triangle_last = false;
        o.time_limit = 5;
        solver::SoloSearch search(q, o);
        search.start();
        while (!search.wait_for(0.005)) (void)search.stats();
        search.join();
        const auto best = search.best();
        std::printf("solver: from a near miss: %s, %d triangles unplaced\n", best.complete ? "complete" : "incomplete",
                    best.unplaced_triangles);
        expect(replays_legally(q, best.moves), "solver: the best game from a near miss replays legally");
    }
    {  // stop from another thread
        solver::SoloOptions o;
        o.threads = 3;
        o.count = 1000000;  // never reached
        o.time_limit = 60;
        solver::SoloSearch search(start, o);
        search.start();
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(80));
            search.stop();
        });
        search.join();
        t.join();
        expect(!search.solutions().empty() || search.best().moves.size() > 0, "stopped solver has a best layout");
    }
    std::printf("solver: ok\n");
}

// can_place_all on several threads (guided search beside one or two exhaustive searches, the
// first to settle stopping the others; the exhaustive search alone with its tree shared out
// among the threads) against the exhaustive search on one thread, and stopped from another thread.
void exact_runs() {
    Rules r;
    Position start(r);
    solver::SoloOptions so;
    so.seed = 3;
    so.time_limit = 60;
    solver::SoloSearch solo(start, so);
    solo.start();
    solo.join();
    const auto sols = solo.solutions();
    expect(!sols.empty(), "exact: a solution to take back");
    if (sols.empty()) return;
    for (int replaced : {4, 6}) {  // a "yes" (the quick stage settles it) and a "no" past it (72k nodes)
        const Position q = near_miss(start, sols.front().moves, 16, replaced, 12345 + replaced);
        solver::ExactOptions o;
        o.time_limit = 60;
        o.heuristic = false;
        o.transpositions = false;  // (each thread's table of residual problems: node counts would depend on the split)
        const auto want = solver::can_place_all(q, o);
        std::printf("exact: %d moves replaced: answer %d, %lld nodes\n", replaced, want.answer, want.nodes);
        expect(want.answer >= 0, "exact: the exhaustive search settles it");
        for (int threads : {2, 4}) {
            solver::ExactOptions t = o;
            t.heuristic = true;
            t.threads = threads;
            const auto got = solver::can_place_all(q, t);
            expect(got.answer == want.answer, "exact: threads give the same answer");
            t.heuristic = false;  // the exhaustive search alone, its tree shared out among the threads
            t.both_orders = false;
            const auto split = solver::can_place_all(q, t);
            expect(split.answer == want.answer, "exact: the shared-out search gives the same answer");
            expect(split.answer != 0 || split.nodes == want.nodes, "exact: a shared-out 'no' searches the same tree");
            t.transpositions = true;  // each thread skipping residual problems it met: the same answer
            const auto skipping = solver::can_place_all(q, t);
            expect(skipping.answer == want.answer, "exact: the shared-out search skipping residual problems agrees");
        }
    }
    {  // repairs that climb on two threads, each walk handing its better layouts to the turns' best:
       // a solution taken back to twelve pieces a colour, then 24 random moves (no complete layout found)
        const Position q = near_miss(start, sols.front().moves, 48, 24, 777);
        solver::ExactOptions o;
        o.time_limit = 1.0;
        o.threads = 2;
        const auto got = solver::can_place_all(q, o);
        const auto& layout = got.answer == 1 ? got.witness : got.best_layout;
        Position p = q;
        bool legal = true;
        for (auto [c, id] : layout) {
            legal = legal && p.is_legal(c, id);
            if (legal) p.place(c, id);
        }
        std::printf("exact: 24 moves random: answer %d, best layout %d triangles\n", got.answer, got.best_triangles);
        expect(legal && (got.answer == 1 || got.best_triangles > 0), "exact: the climbing repairs' layout is legal");
    }
    {  // stop from another thread, three threads at work on a question they cannot settle soon
        Position q = start;
        for (std::size_t k = 0; k < 40; ++k) q.play(sols.front().moves[k].second);
        solver::ExactOptions o;
        o.time_limit = 60;
        o.threads = 3;
        std::atomic<bool> stop{false};
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            stop = true;
        });
        const auto got = solver::can_place_all(q, o, &stop);
        t.join();
        expect(got.seconds < 30, "exact: stopped from another thread");
    }
    {  // max_placeable's guided dives (a thread of their own) on a colour that needs them: red of a
       // search-played endgame, 14 pieces left, all placeable in a big open region; then stopped
       // from another thread while they run
        static const int kMoves[] = {5435,  8688,  10263, 22711, 9196,  15928, 6220,  23097, 13937, 21063, 9737,
                                     25330, 16808, 18402, 3765,  23639, 21664, 24937, 1985,  24015, 4876,  10859,
                                     2469,  20049, 4593,  28201, 1418,  12806, 23927, 15334, 14885, 27016};
        Position q = start;
        for (int id : kMoves) q.play(id);
        solver::ExactOptions o;
        o.time_limit = 60;
        const auto got = solver::max_placeable(q, 2, o);
        expect(got.proven && got.max_triangles == 63, "exact: max_placeable's dives place every piece");
        std::atomic<bool> stop{false};
        std::thread t([&] { stop = true; });
        const auto stopped = solver::max_placeable(q, 2, o, &stop);
        t.join();
        expect(stopped.seconds < 30, "exact: max_placeable stopped from another thread");
    }
    std::printf("exact: ok\n");
}

void batch_games() {
    Rules r;
    Position start(r);
    for (Policy policy : {Policy::Random, Policy::Greedy, Policy::Search}) {
        BatchConfig cfg;
        cfg.policy = policy;
        cfg.level = 1;
        cfg.games = policy == Policy::Search ? 4 : 24;
        cfg.threads = 3;
        cfg.seed = 7;
        const int m = max_moves(start);
        std::vector<std::int16_t> moves(cfg.games * m), lengths(cfg.games), scores(cfg.games * 4);
        std::vector<std::int8_t> colours(cfg.games * m);
        BatchOutput out{moves.data(), colours.data(), lengths.data(), scores.data(), nullptr, nullptr};
        const bool finished = play_games(start, cfg, out, [] { return true; });
        expect(finished, "batch finished");
        // The same games on one thread: the thread count must not change any game.
        cfg.threads = 1;
        std::vector<std::int16_t> moves1(moves.size()), lengths1(lengths.size()), scores1(scores.size());
        std::vector<std::int8_t> colours1(colours.size());
        BatchOutput out1{moves1.data(), colours1.data(), lengths1.data(), scores1.data(), nullptr, nullptr};
        play_games(start, cfg, out1, [] { return true; });
        expect(moves == moves1 && scores == scores1, "batch games equal on 1 and 3 threads");
    }
    std::printf("batch: ok\n");
}

// A body whose copy fails once `armed`: ThreadGroup::start then throws before the thread runs,
// as it does when the system refuses a thread (std::system_error), which cannot be provoked here.
struct FailingCopy {
    bool armed = false;
    FailingCopy() = default;
    FailingCopy(const FailingCopy& o) : armed(o.armed) {
        if (armed) throw std::runtime_error("no thread");
    }
    void operator()() const {}
};

// Starts n workers that spin until `stop` is set, then count themselves in `ended`.
void start_spinners(ThreadGroup& group, int n, std::atomic<bool>& stop, std::atomic<int>& ended) {
    for (int i = 0; i < n; ++i)
        group.start([&] {
            while (!stop.load()) std::this_thread::yield();
            ++ended;
        });
}

void thread_group() {
    // A body's exception stops the others (they spin on the flag) and join() rethrows it.
    {
        std::atomic<bool> stop{false};
        std::atomic<int> ended{0};
        ThreadGroup group([&] { stop = true; });
        start_spinners(group, 3, stop, ended);
        group.start([] { throw std::runtime_error("worker failed"); });
        bool rethrown = false;
        try {
            group.wait(std::chrono::milliseconds(1), [] {});
            group.join();
        } catch (const std::runtime_error& e) {
            rethrown = std::string(e.what()) == "worker failed";
        }
        expect(rethrown && ended == 3, "group: a body's exception stops the others and is rethrown");
    }
    // A thread that cannot be started: the ones running are stopped and joined, the error goes on.
    {
        std::atomic<bool> stop{false};
        std::atomic<int> ended{0};
        bool thrown = false;
        try {
            ThreadGroup group([&] { stop = true; });
            start_spinners(group, 2, stop, ended);
            FailingCopy body;
            body.armed = true;
            group.start(body);
        } catch (const std::runtime_error&) {
            thrown = true;
        }
        expect(thrown && ended == 2 && stop, "group: a failed start stops and joins the others");
    }
    // A poll that throws while the threads run: the group stops and joins them on the way out.
    {
        std::atomic<bool> stop{false};
        std::atomic<int> ended{0};
        bool thrown = false;
        try {
            ThreadGroup group([&] { stop = true; });
            start_spinners(group, 2, stop, ended);
            group.wait(std::chrono::milliseconds(1), [] { throw std::runtime_error("poll failed"); });
        } catch (const std::runtime_error&) {
            thrown = true;
        }
        expect(thrown && ended == 2, "group: a poll's exception stops and joins the group");
    }
    // The caller's own share: guarded like the others, rethrown by join() after them.
    {
        std::atomic<bool> stop{false};
        ThreadGroup group([&] { stop = true; });
        group.start([&] {
            while (!stop.load()) std::this_thread::yield();
        });
        group.run_here([] { throw std::runtime_error("caller failed"); });
        bool rethrown = false;
        try {
            group.join();
        } catch (const std::runtime_error&) {
            rethrown = true;
        }
        expect(rethrown, "group: the caller's exception is rethrown after the join");
    }
    std::printf("group: ok\n");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "all";
    if (what == "all" || what == "search") search_games();
    if (what == "all" || what == "solver") solver_runs();
    if (what == "all" || what == "batch") batch_games();
    if (what == "all" || what == "exact") exact_runs();
    if (what == "all" || what == "group") thread_group();
    if (failures) return 1;
    std::printf("ok\n");
    return 0;
}
