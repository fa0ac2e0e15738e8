// Stress driver for the rules core, built by .ci/sanitize under ASan+UBSan and under TSan (not
// part of the wheel). Exits non-zero on the first inconsistency; sanitizers abort on memory or
// UB errors and on data races.
//
//   stress_core [games=40] [threads=1] [seed=1]
//   stress_core canary-asan | canary-tsan   (must be reported by the sanitizer)
// threads == 1: random games on every variant with generate/check/playout cross-checks, junk
// input to MoveTable::find and Position::check, Bitboard::nth against a walk. threads > 1: the threads all play random games
// at once on the shared tables (first use of the tables included) and must reproduce the games
// a single thread played from the same seeds.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/playout.h"
#include "core/position.h"
#include "core/random.h"

using namespace trigon;

namespace {

std::atomic<long> g_failures{0};
std::atomic<long> g_checks{0};

#define EXPECT(cond, ...)                                                       \
    do {                                                                        \
        g_checks.fetch_add(1, std::memory_order_relaxed);                       \
        if (!(cond)) {                                                          \
            std::fprintf(stderr, "%s:%d: failed: %s: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                  \
            std::fprintf(stderr, "\n");                                         \
            if (g_failures.fetch_add(1) > 20) std::exit(1);                     \
        }                                                                       \
    } while (0)

// The variants the Python API builds, plus odd colour subsets (solo, two colours, side 8 with 4).
std::vector<Rules> all_rules() {
    std::vector<Rules> v;
    for (int side : {9, 8})
        for (int colours : {0xF, 0x7, 0x5, 0x1, 0x8, 0xA})
            for (bool alternate : {false, true})
                for (StartRule sr : {StartRule::Any, StartRule::Opposite, StartRule::EveryOther}) {
                    Rules r;
                    r.side = side;
                    r.colours = static_cast<std::uint8_t>(colours);
                    r.alternate = alternate;
                    r.start_rule = sr;
                    v.push_back(r);
                }
    return v;
}

// Every placement id of the board and ids around and far outside its range.
std::vector<int> probe_ids(const MoveTable& t) {
    std::vector<int> ids;
    for (int id = 0; id < t.num_placements(); ++id) ids.push_back(id);
    for (int id : {-1, -2, -32768, -65536, INT_MIN, t.num_placements(), t.num_placements() + 1, kMaxPlacements,
                   kMaxPlacements + 1, 65535, 65536, INT_MAX})
        ids.push_back(id);
    return ids;
}

// generate() == {ids with check() == None}; check() never reads out of range; the playout's move
// sets agree with generate().
void check_position_consistency(const Position& p, const RandomPlayout* po, MoveList& ml,
                                std::vector<std::uint16_t>& buf) {
    const MoveTable& t = p.table();
    static thread_local std::vector<char> legal;
    for (int c = -2; c < kNumColours + 2; ++c) {
        for (int id : {-1, INT_MIN, INT_MAX, t.num_placements()})
            EXPECT(p.check(c, id) != Illegal::None, "colour %d id %d", c, id);
        if (c < 0 || c >= kNumColours) {
            EXPECT(p.check(c, 0) != Illegal::None, "bad colour %d accepted", c);
            continue;
        }
        legal.assign(t.num_placements(), 0);
        int n = p.generate(c, ml);
        for (int i = 0; i < n; ++i) {
            int id = ml.moves[i];
            EXPECT(id >= 0 && id < t.num_placements(), "generated id %d", id);
            EXPECT(!legal[id], "id %d generated twice", id);
            legal[id] = 1;
        }
        int n_checked = 0;
        for (int id : probe_ids(t)) {
            bool ok = p.check(c, id) == Illegal::None;
            if (id >= 0 && id < t.num_placements()) {
                n_checked += ok;
                if (!p.is_over() && p.in_play(c))
                    EXPECT(ok == bool(legal[id]), "colour %d id %d: check %d, generate %d", c, id, ok, legal[id]);
            } else {
                EXPECT(!ok, "out-of-range id %d legal", id);
            }
        }
        if (!p.is_over() && p.in_play(c)) {
            EXPECT(n_checked == n, "colour %d: %d legal by check, %d generated", c, n_checked, n);
            EXPECT(p.has_move(c) == (n > 0), "has_move(%d) disagrees", c);
        }
        if (po != nullptr && !p.is_over() && p.in_play(c) && !p.is_out(c)) {
            int m = po->legal_moves(c, buf.data());
            EXPECT(m == n, "colour %d: playout %d moves, generate %d", c, m, n);
            for (int i = 0; i < m; ++i) EXPECT(legal[buf[i]], "playout move %d not legal", buf[i]);
            EXPECT(po->count_moves(c) == n, "count_moves(%d)", c);
        }
    }
}

// Random games driven by Position::generate, with the playout following the same moves.
// Incremental lists (the earlier moves still_legal, plus generate_at at the new attach points)
// must equal a full generate() for every started colour after each move.
void check_incremental_lists(const Position& before, const Position& after, int mover,
                             std::vector<std::vector<std::uint16_t>>& lists, MoveList& ml,
                             std::vector<std::uint16_t>& buf) {
    for (int c = 0; c < kNumColours; ++c) {
        if (!after.in_play(c)) continue;
        std::vector<std::uint16_t> next;
        if (!before.started(c)) {
            after.generate(c, ml);
            next.assign(ml.begin(), ml.end());
        } else {
            for (auto id : lists[c])
                if (after.still_legal(c, id)) next.push_back(id);
            if (c == mover) {
                const int n = after.generate_at(c, after.attach_points(c) - before.attach_points(c), buf.data());
                next.insert(next.end(), buf.begin(), buf.begin() + n);
            }
        }
        after.generate(c, ml);
        std::vector<std::uint16_t> full(ml.begin(), ml.end()), got = next;
        std::sort(full.begin(), full.end());
        std::sort(got.begin(), got.end());
        EXPECT(got == full, "incremental list of colour %d: %zu moves, generate() %zu", c, got.size(), full.size());
        lists[c] = std::move(next);
    }
}

void random_games_checked(const Rules& rules, int games, Rng& rng, bool every_position) {
    auto ml = std::make_unique<MoveList>();
    std::vector<std::uint16_t> buf(kMaxPlacements);
    for (int g = 0; g < games; ++g) {
        Position p(rules);
        RandomPlayout po(p);
        int moves = 0;
        std::vector<std::vector<std::uint16_t>> lists(kNumColours);
        for (int c = 0; c < kNumColours; ++c) {
            p.generate(c, *ml);
            lists[c].assign(ml->begin(), ml->end());
        }
        while (!p.is_over()) {
            if (every_position || moves % 7 == 0) check_position_consistency(p, &po, *ml, buf);
            int c = p.to_move();
            int n = p.generate(c, *ml);
            EXPECT(n > 0, "colour %d to move with no move", c);
            if (n == 0) break;
            int id = ml->moves[rng.below(static_cast<std::uint32_t>(n))];
            EXPECT(p.check(c, id) == Illegal::None, "generated move illegal");
            const Position before = p;
            p.play(id);
            check_incremental_lists(before, p, c, lists, *ml, buf);
            po.play(id);
            EXPECT(po.position() == p, "playout position diverged after %d moves", moves);
            ++moves;
            EXPECT(moves <= kNumColours * kNumPieces, "game too long");
            if (moves > kNumColours * kNumPieces) break;
        }
        check_position_consistency(p, nullptr, *ml, buf);
        EXPECT(p.is_over(), "game not over");
        for (int c = 0; c < kNumColours; ++c) EXPECT(!p.has_move(c) || !p.in_play(c), "colour %d can still move", c);
        // The playout's own random game from the same start ends over too.
        RandomPlayout po2{Position(rules)};
        int played = po2.run(rng);
        EXPECT(po2.is_over() && played <= kNumColours * kNumPieces, "playout run");
        EXPECT(po2.step(rng) == kPass, "step after the end");
        po2.reset();
        EXPECT(po2.position() == Position(rules), "reset");
    }
}

void junk_find(const MoveTable& t, Rng& rng, int rounds) {
    int cells[16];
    for (int r = 0; r < rounds; ++r) {
        int n = static_cast<int>(rng.below(10)) - 1;  // -1..8: find must refuse n outside 1..6
        for (int i = 0; i < 16; ++i) {
            switch (rng.below(4)) {
                case 0: cells[i] = static_cast<int>(rng.below(t.geo().num_cells())); break;
                case 1: cells[i] = static_cast<int>(rng.next()); break;
                case 2: cells[i] = static_cast<int>(rng.below(1200)) - 600; break;
                default: cells[i] = i > 0 ? cells[i - 1] : 0; break;  // duplicates
            }
        }
        int id = t.find(cells, n);
        if (n < 1 || n > kMaxPieceSize) EXPECT(id == -1, "find accepted n=%d", n);
        if (id >= 0) {
            const auto& pl = t.placement(id);
            EXPECT(pl.size == n, "find size");
            std::vector<int> a(cells, cells + n), b(pl.cells.begin(), pl.cells.begin() + pl.size);
            std::sort(a.begin(), a.end());
            EXPECT(a == b, "find returned placement %d with other cells", id);
        }
    }
    // Every placement is found from its cells in any order; with one cell changed, not as itself.
    for (int id = 0; id < t.num_placements(); ++id) {
        const auto& pl = t.placement(id);
        int c[kMaxPieceSize];
        for (int i = 0; i < pl.size; ++i) c[i] = pl.cells[i];
        for (int i = pl.size - 1; i > 0; --i) std::swap(c[i], c[rng.below(static_cast<std::uint32_t>(i + 1))]);
        EXPECT(t.find(c, pl.size) == id, "placement %d not found", id);
        c[0] = t.geo().num_cells();
        EXPECT(t.find(c, pl.size) == -1, "off-board cell accepted");
        c[0] = c[pl.size - 1];
        if (pl.size > 1) EXPECT(t.find(c, pl.size) == -1, "duplicate cell accepted");
        for (int k = 0; k < kNumSymmetries; ++k) {
            int s = t.symmetric(k, id);
            EXPECT(s >= 0 && s < t.num_placements(), "symmetric(%d, %d)", k, id);
        }
    }
}

void junk_parse(const Geometry& geo, Rng& rng, int rounds) {
    const char alphabet[] = "aAzZr15q09,- \t\n\x7f\xff";
    for (int c = 0; c < geo.num_cells(); ++c) EXPECT(geo.parse_cell(geo.cell_name(c)) == c, "cell %d name", c);
    for (int r = 0; r < rounds; ++r) {
        std::string s;
        int len = static_cast<int>(rng.below(8));
        for (int i = 0; i < len; ++i) s += alphabet[rng.below(sizeof(alphabet) - 1)];
        int c = geo.parse_cell(s);
        EXPECT(c >= -1 && c < geo.num_cells(), "parse_cell(\"%s\") = %d", s.c_str(), c);
    }
    for (int x = -3; x < geo.width() + 3; ++x)
        for (int y = -3; y < geo.height() + 3; ++y) EXPECT(geo.cell_at(x, y) >= -1, "cell_at");
    EXPECT(geo.cell_at(INT_MIN, INT_MAX) == -1 && geo.cell_at(INT_MAX, 0) == -1, "cell_at far off");
}

// One thread's work for the concurrent run: a list of (seed -> moves of its random game).
std::vector<std::vector<int>> play_seeds(int side, long first_seed, int games, bool via_position) {
    std::vector<std::vector<int>> out;
    Rules rules;
    rules.side = side;
    rules.colours = side == 8 ? 0x7 : 0xF;
    Position start(rules);
    RandomPlayout po(start);
    auto ml = std::make_unique<MoveList>();
    for (int g = 0; g < games; ++g) {
        Rng rng(static_cast<std::uint64_t>(first_seed + g));
        std::vector<int> moves;
        if (via_position) {
            Position p(rules);
            while (!p.is_over()) {
                int n = p.generate(p.to_move(), *ml);
                if (n == 0) break;
                int id = ml->moves[rng.below(static_cast<std::uint32_t>(n))];
                p.play(id);
                moves.push_back(id);
            }
        } else {
            po.reset();
            while (!po.is_over()) moves.push_back(po.step(rng));
        }
        out.push_back(std::move(moves));
    }
    return out;
}

int run_threads(int threads, int games, long seed) {
    // All threads touch the tables for the first time together (static init under contention).
    std::vector<std::vector<std::vector<int>>> results(threads);
    std::vector<std::thread> pool;
    std::atomic<int> ready{0};
    for (int i = 0; i < threads; ++i) {
        pool.emplace_back([&, i] {
            ready.fetch_add(1);
            while (ready.load() < threads) std::this_thread::yield();
            int side = i % 2 == 0 ? 9 : 8;
            const MoveTable& t = MoveTable::get(side);
            EXPECT(t.num_placements() == (side == 9 ? 32131 : 24859), "table size %d", t.num_placements());
            // Threads with the same parity play the same seeds: their games must be equal.
            results[i] = play_seeds(side, seed, games, i % 4 >= 2);
        });
    }
    for (auto& th : pool) th.join();
    for (int i = 0; i < threads; ++i) {
        int side = i % 2 == 0 ? 9 : 8;
        auto ref = play_seeds(side, seed, games, i % 4 >= 2);
        EXPECT(results[i] == ref, "thread %d played other games than one thread alone", i);
    }
    std::printf("stress_core: %d threads x %d games: %ld checks, %ld failures\n", threads, games,
                g_checks.load(), g_failures.load());
    return g_failures.load() == 0 ? 0 : 1;
}

}  // namespace

// Bitboard::nth against a plain walk of the set, on random sets of every density, and past the end.
void bitboard_nth(Rng& rng, int rounds) {
    for (int r = 0; r < rounds; ++r) {
        Bitboard b;
        const std::uint32_t density = 1 + rng.below(64);
        for (int x = 0; x < Bitboard::kBits; ++x)
            if (rng.below(64) < density) b.set(x);
        int k = 0;
        b.for_each([&](int x) {
            EXPECT(b.nth(k) == x, "nth(%d) = %d, the walk says %d", k, b.nth(k), x);
            ++k;
        });
        EXPECT(b.nth(k) == -1 && b.nth(k + 100) == -1, "nth past the end of %d indices", k);
    }
}

// Deliberate errors that the sanitizer build must catch (the script checks they fail), so that
// a clean run means the checks were live.
int canary(const std::string& what, int argc) {
    if (what == "canary-asan") {
        std::vector<int> v(static_cast<std::size_t>(argc));
        return v[static_cast<std::size_t>(argc) + 2];  // heap-buffer-overflow
    }
    int shared = 0;  // canary-tsan: unsynchronised writes from two threads
    std::thread a([&] { for (int i = 0; i < 100000; ++i) ++shared; });
    std::thread b([&] { for (int i = 0; i < 100000; ++i) ++shared; });
    a.join();
    b.join();
    return shared == -1;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]).rfind("canary", 0) == 0) return canary(argv[1], argc);
    int games = argc > 1 ? std::atoi(argv[1]) : 40;
    int threads = argc > 2 ? std::atoi(argv[2]) : 1;
    long seed = argc > 3 ? std::atol(argv[3]) : 1;
    if (threads > 1) return run_threads(threads, games, seed);

    Rng rng(static_cast<std::uint64_t>(seed));
    bitboard_nth(rng, 200);
    for (int side : {9, 8}) {
        const MoveTable& t = MoveTable::get(side);
        junk_find(t, rng, 200000);
        junk_parse(t.geo(), rng, 100000);
    }
    // Every variant: one game checked at every position; then more checked every 7th move.
    auto rules = all_rules();
    for (std::size_t i = 0; i < rules.size(); ++i) random_games_checked(rules[i], 1, rng, i % 9 == 0);
    long total = static_cast<long>(rules.size());
    for (int g = 0; g < games; ++g) {
        random_games_checked(rules[rng.below(static_cast<std::uint32_t>(rules.size()))], 1, rng, false);
        ++total;
    }
    std::printf("stress_core: %ld games on %zu variants: %ld checks, %ld failures\n", total, rules.size(),
                g_checks.load(), g_failures.load());
    return g_failures.load() == 0 ? 0 : 1;
}
