#include "solver/solo.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <stdexcept>

#include "core/random.h"
#include "solver/reach.h"
#include "solver/repair.h"

namespace trigon::solver {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kTriangle = kNumPieces - 1;
// Move ordering, tuned on the standard and alternate puzzles (bench/bench_solver.py): pieces
// largest first; among equals, fewest cells made useless to everyone, then the snuggest fit
// (fewest empty edge neighbours), with a little noise so that restarts differ.
constexpr int kScorePerTriangle = 1000;
constexpr int kDeadCellPenalty = 120;
constexpr int kExposurePenalty = 20;
constexpr int kNoise = 10;
constexpr int kBranching = 8;  // best candidates tried per node
// Solutions found and not yet taken by a consumer (solve_solo's Python side makes games of them,
// 0.15-0.4 ms each): past this many the workers wait for it.
constexpr std::size_t kMaxBacklog = 32;
// Looking for many (count > 1): the search ends once this many restarts in a row, and at least
// kStaleFactor times the restarts it took to find the last new layout, found none new. Layouts
// near each other come within a few restarts of the last (from a solution with three triangles
// taken back, its 769 layouts in 57-81 restarts); from the empty board new ones never stop.
constexpr long long kStaleRestarts = 200;
constexpr long long kStaleFactor = 4;
// Looking for many from a position, some restarts sweep the whole tree from the start, each with
// twice the nodes of the last: one that finishes has found every layout there is. (The restarts
// alone stop near the last layouts found: from a solution with six moves taken back they ended
// with 5,700-6,500 of its 97,343 layouts, which one sweep of 114,000 nodes finds.) Sweeps take at
// most a quarter of the nodes: far from the end no sweep finishes, and every other restart a
// sweep took nearly all of them (near misses at 12 pieces a colour, the first of two layouts in
// 16.5 s instead of 6.4). Once nothing new comes for long, sweeps alone go on, up to twice the
// nodes spent so far, before the search ends.
constexpr long long kSweepShare = 3;  // other restarts' nodes per sweep node, at least
constexpr long long kStaleSweepFactor = 2;
constexpr long long kFirstSweepNodes = 1000;
// Restarts: a small fixed node budget each; many keep a prefix (ruin and recreate). Many short
// runs beat fewer long ones: against 4,000 nodes growing by 400 a restart, near misses at 12
// pieces a colour from the end took a median 0.17 s instead of 2.0 s, and the full puzzle's
// worst of 20 seeds 30-50 ms instead of 60-90 (bench/bench_solver.py).
constexpr long long kRestartNodes = 300;
// Placing as much as possible (no complete game exists) gains from deeper backtracking: from
// random positions with a colour stuck, 300-node restarts placed 44 / 49 triangles where
// 10,000-node ones placed 61 / 63 in the same 2 s (more nodes did no better).
constexpr long long kMaximiseRestartNodes = 10000;
constexpr int kPrefixRestartPercent = 50;
constexpr int kMinPrefix = 40;
// From a position, the first worker's repairs (repair()): a turn after this many nodes of
// restarts, with this many nodes of exhaustive search per node of them.
constexpr long long kRepairEvery = 6000;
constexpr double kRepairNodesPerNode = 2.0;
constexpr long long kRepairStepNodes = 5000;  // a neighbourhood's exhaustive search: nodes at most

std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

int area_of(std::uint32_t pieces) {
    static const int* sizes = [] {
        static int s[kNumPieces];
        for (int p = 0; p < kNumPieces; ++p) s[p] = trigon_pieces()[p].size;
        return s;
    }();
    int a = 0;
    for (std::uint32_t l = pieces; l; l &= l - 1) a += sizes[std::countr_zero(l)];
    return a;
}

}  // namespace

struct SoloSearch::Shared {
    Shared(const Position& s, const SoloOptions& o) : start(s), opt(o) {}
    Position start;
    SoloOptions opt;
    int target = 0;
    Clock::time_point t0;
    std::atomic<bool>* stop = nullptr;
    std::atomic<long long> nodes{0}, restarts{0};
    std::atomic<int> best_placed{0};
    mutable std::mutex mu;
    std::vector<SoloSolution> solutions;
    std::unordered_set<std::string> keys;
    std::array<std::vector<int>, kNumColours> best_partial;
    int best_partial_area = -1;
    // Colours whose every legal move at the start is their triangle while other pieces are left:
    // the triangle cannot come last for them, so with triangle_last they may place it first.
    std::uint8_t triangle_first = 0;
    // Colours in play that hold pieces but have no legal move at the start (they can never
    // complete): the search places the others' pieces, and all of them placed is the best answer.
    std::uint8_t stuck = 0;
    // The restart count when the last new distinct layout was found (-1: none yet).
    std::atomic<long long> last_new_restart{-1};
    // Looking for many: a sweep of the whole tree finished, so every layout there is was found.
    std::atomic<bool> all_found{false};
    // Solutions a consumer has taken while the search runs (SoloSearch::taken); none: no consumer.
    std::atomic<std::size_t> taken{kNoConsumer};
    static constexpr std::size_t kNoConsumer = ~std::size_t{0};

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }

    // best_partial as (colour, id) pairs, colour by colour.
    std::vector<std::pair<int, int>> best_partial_moves() const {
        std::lock_guard<std::mutex> lock(mu);
        std::vector<std::pair<int, int>> moves;
        for (int c = 0; c < kNumColours; ++c)
            for (int id : best_partial[c]) moves.push_back({c, id});
        return moves;
    }
};

namespace {

struct Candidate {
    int score;
    std::uint16_t id;
};

class Worker {
public:
    Worker(SoloSearch::Shared& sh, int index)
        : sh_(sh), t_(sh.start.table()), geo_(t_.geo()), index_(index), ml_(std::make_unique<MoveList>()) {
        stack_.assign(kNumColours * kNumPieces + kNumColours + 2, sh.start);  // (a level per piece or dropped colour)
        cands_.resize(stack_.size());
        active_ = sh.start.rules().colours & ~sh.stuck;
        if (sh.opt.colours) active_ &= sh.opt.colours;
        for (int c = 0; c < kNumColours; ++c) order_[c] = (sh.start.to_move() + c) % kNumColours;
        start_area_ = 0;
        for (int c = 0; c < kNumColours; ++c)
            if (active_ >> c & 1) start_area_ += area_of(sh.start.pieces_left(c));
        area_fits_ = start_area_ <= (geo_.all_cells() - sh.start.occupied_all()).count();
        if (area_fits_ && sh.start.occupied_all().any()) {  // (pieces_fit's tables: only from a position)
            touch_ = touch_masks(geo_);
            for (auto& w : fit_) w.fill(kNoFit);
            check_fit_ = pieces_fit(sh.start);
        }
        repairs_ = index == 0 && sh.opt.repairs && sh.start.occupied_all().any();
        many_ = sh.opt.count > 1 && !sh.stuck && area_fits_;
        sweeps_ = many_ && sh.start.occupied_all().any();
    }

    void run() {
        const auto& opt = sh_.opt;
        for (long long r = 0; !sh_.stop->load(); ++r) {
            rng_.seed_with(mix(opt.seed * 0x100000001B3ull + static_cast<std::uint64_t>(index_) * 0x9E37ull +
                               static_cast<std::uint64_t>(r)));
            check_now_ = check_fit_ && (r & 1) == 0;
            // No complete game (a colour stuck, or more area than empty cells): every other
            // restart (every one when nothing fits) places as much as it can instead.
            maximise_ = !area_fits_ || (sh_.stuck && (r & 1));
            const long long next_sweep = sweep_nodes_ > 0 ? 2 * sweep_nodes_ : kFirstSweepNodes;
            bool sweep = false;
            if (sweeps_ && stale_) {  // (nothing new for long: sweeps alone, up to their cap)
                if (sweep_spent_ + next_sweep > stale_cap_) {
                    sh_.stop->store(true);
                    break;
                }
                sweep = true;
            } else if (sweeps_) {
                sweep = sweep_spent_ + next_sweep <= restart_spent_ / kSweepShare;
            }
            if (sweep) sweep_nodes_ = next_sweep;
            limit_ = sweep                 ? sweep_nodes_
                     : opt.restart_nodes > 0 ? opt.restart_nodes
                     : maximise_           ? kMaximiseRestartNodes
                                           : kRestartNodes;
            restart_nodes_ = 0;
            path_.clear();
            placed_ = 0;
            stack_[0] = sh_.start;
            // Ruin and recreate: many restarts keep a random prefix of the last solution (for
            // more distinct ones) or of the deepest branch so far, and search the rest afresh.
            const auto& base = !solution_path_.empty() ? solution_path_ : best_path_;
            int cut = 0;
            if (!sweep && !base.empty() &&
                static_cast<int>(rng_.below(100)) < (solution_path_.empty() ? kPrefixRestartPercent : 90)) {
                const int len = static_cast<int>(base.size());
                const int lo = solution_path_.empty() ? kMinPrefix : len / 2;
                if (len > lo) cut = lo + static_cast<int>(rng_.below(static_cast<std::uint32_t>(len - lo)));
            }
            for (int i = 0; i < cut; ++i) {
                auto [c, id] = base[i];
                stack_[i + 1] = stack_[i];
                stack_[i + 1].place(c, id);
                path_.push_back(base[i]);
                placed_ += t_.placement(id).size;
            }
            truncated_ = false;
            dfs(cut);
            (sweep ? sweep_spent_ : restart_spent_) += restart_nodes_;
            const long long restarts = sh_.restarts.fetch_add(1) + 1;
            flush_nodes();
            // Placing as much as possible, a restart from the start that tried every candidate
            // within its node budget searched the whole tree: its best is the best there is
            // (a tiny endgame ran for its whole time limit).
            if (maximise_ && cut == 0 && !truncated_ && !many_) sh_.stop->store(true);
            // Looking for many, the same: a restart from the start that tried every candidate
            // (and was not stopped) has found every layout.
            if (many_ && cut == 0 && !truncated_ && !sh_.stop->load()) {
                sh_.all_found.store(true);
                sh_.stop->store(true);
            }
            if (const long long last = sh_.last_new_restart.load(); many_ && !stale_ && last >= 0 &&
                restarts - last > std::max(kStaleRestarts, kStaleFactor * last)) {
                stale_ = true;  // (most likely none is left: sweeps alone may still prove it)
                stale_cap_ = sweep_spent_ + kStaleSweepFactor * (sweep_spent_ + restart_spent_);
                if (!sweeps_) sh_.stop->store(true);
            }
            restarts_since_repair_ += restart_nodes_;
            if (repairs_) repair();
        }
        flush_nodes();
    }

private:
    void flush_nodes() {
        sh_.nodes.fetch_add(pending_nodes_);
        if (sh_.opt.progress) sh_.opt.progress->fetch_add(pending_nodes_, std::memory_order_relaxed);
        pending_nodes_ = 0;
    }

    // The colour to extend next: the one with most pieces left, ties in turn order.
    int choose_colour(const Position& P) const {
        int best = -1, most = 0;
        for (int k = 0; k < kNumColours; ++k) {
            int c = order_[k];
            if (!((active_ & ~dropped_) >> c & 1)) continue;
            int left = std::popcount(P.pieces_left(c));
            if (left > most) {
                most = left;
                best = c;
            }
        }
        return best;
    }

    // Lower bound on cells that must stay empty: cells no colour can still cover (forbidden to
    // every colour with pieces left); `fr` gets each colour's free cells. (Counting cells only a
    // lone triangle could fill as well cost more time than it saved.)
    int waste_bound(const Position& P, Bitboard* fr) const {
        const Bitboard& all = geo_.all_cells();
        const Bitboard empty = all - P.occupied_all();
        Bitboard any_free;
        for (int c = 0; c < kNumColours; ++c) {
            fr[c] = Bitboard{};
            if (!((active_ & ~dropped_) >> c & 1) || P.pieces_left(c) == 0) continue;
            fr[c] = all - P.forbidden(c);
            any_free |= fr[c];
        }
        return (empty - any_free).count();
    }

    // Every colour in play can still place each of its pieces: inside its reach, with room for
    // their area. A branch where one cannot is a dead end however the others go on. Near misses
    // 11-14 pieces a colour from the end took 27 s in all instead of 40 (36 of them, 33
    // complete either way). Checked only from a position the start passes it in (from the empty
    // board it cost the solo puzzle a quarter of its distinct solutions per second), and on every
    // other restart: the branches it cuts still hold the best partial layouts when no complete
    // one exists (checked on every restart, those of random 12-left endgames were 3-12 triangles
    // shorter).
    bool pieces_fit(const Position& P) {
        const Bitboard empty = geo_.all_cells() - P.occupied_all();
        for (int c = 0; c < kNumColours; ++c) {
            const std::uint32_t left = P.pieces_left(c);
            if (!(active_ >> c & 1) || !left) continue;
            const int area = area_of(left);
            const Bitboard reach = reach_of(P, c, empty - P.forbidden(c), area, touch_);
            if (reach.count() < area) return false;
            for (std::uint32_t l = left; l; l &= l - 1) {
                std::uint16_t& w = fit_[c][std::countr_zero(l)];  // the last placement found, while it fits
                if (w == kNoFit || (t_.cells_mask(w) - reach).any()) w = fit_inside(t_, reach, std::countr_zero(l));
                if (w == kNoFit) return false;
            }
        }
        return true;
    }

    // After every kRepairEvery nodes of restarts, repairs of the best partial layout with
    // kRepairNodesPerNode times their nodes (nodes, not seconds: one thread stays deterministic).
    // A complete layout found is a solution, played with every colour's triangle last if asked.
    void repair() {
        if (restarts_since_repair_ < kRepairEvery) return;
        RepairBudget budget;
        budget.nodes = static_cast<long long>(kRepairNodesPerNode * static_cast<double>(restarts_since_repair_));
        budget.step_nodes = kRepairStepNodes;
        restarts_since_repair_ = 0;
        if (sh_.opt.time_limit > 0) {
            budget.seconds = sh_.opt.time_limit - sh_.elapsed();
            if (budget.seconds <= 0) return;
        }
        RepairResult rep = repair_layout(sh_.start, static_cast<std::uint8_t>(active_), sh_.best_partial_moves(),
                                         budget, mix(sh_.opt.seed ^ mix(++repair_turns_)), sh_.stop);
        pending_nodes_ += rep.nodes;
        if (!rep.found) return;
        // An order legal from the start, each colour's triangle after its other pieces if asked
        // (the other pieces first, each once it joins its colour; then the triangles). A layout
        // whose pieces join a colour only through its triangle is no solution then.
        std::vector<std::pair<int, int>> ordered;
        std::vector<char> taken(rep.witness.size());
        Position P = sh_.start;
        if (sh_.opt.triangle_last) {
            play_when_legal(P, rep.witness, taken, ordered, kTriangle);
            for (std::size_t i = 0; i < taken.size(); ++i)  // (another piece left: no solution here)
                if (!taken[i] && t_.placement(rep.witness[i].second).piece != kTriangle &&
                    !(sh_.triangle_first >> rep.witness[i].first & 1))
                    return;
        }
        play_when_legal(P, rep.witness, taken, ordered);
        if (ordered.size() != rep.witness.size()) return;
        path_ = std::move(ordered);
        on_solution();
        path_.clear();
    }

    void on_solution() {
        if (sh_.opt.colours) {
            std::lock_guard<std::mutex> lock(sh_.mu);
            if (!sh_.solutions.empty()) return;
            SoloSolution s;
            s.moves = path_;
            s.complete = true;
            sh_.solutions.push_back(std::move(s));
            sh_.stop->store(true);
            return;
        }
        std::array<std::vector<int>, kNumColours> lists;
        for (auto [c, id] : path_) lists[c].push_back(id);
        if (sh_.stuck) {  // (no complete game: every piece of the colours that can move is the best)
            int prev = sh_.best_placed.load();
            while (start_area_ > prev && !sh_.best_placed.compare_exchange_weak(prev, start_area_)) {}
            std::lock_guard<std::mutex> lock(sh_.mu);
            sh_.best_partial_area = start_area_;
            for (int c = 0; c < kNumColours; ++c) sh_.best_partial[c] = std::move(lists[c]);
            sh_.stop->store(true);
            return;
        }
        SoloSolution s = replay_layout(sh_.start, lists);
        if (!s.complete) return;  // cannot happen for a full packing; keep searching if it does
        Position fin = sh_.start;
        for (auto [c, id] : s.moves) fin.place(c, id);
        std::string key = layout_key(fin);
        std::size_t found = 0;
        {
            std::lock_guard<std::mutex> lock(sh_.mu);
            if (static_cast<int>(sh_.solutions.size()) >= sh_.opt.count) return;
            if (!sh_.keys.insert(key).second) return;
            sh_.solutions.push_back(std::move(s));
            sh_.last_new_restart.store(sh_.restarts.load());
            solution_path_ = path_;
            if (static_cast<int>(sh_.solutions.size()) >= sh_.opt.count) sh_.stop->store(true);
            found = sh_.solutions.size();
        }
        // A consumer taking them as they come is not outrun: past a backlog the worker waits, so
        // that what was found can all be taken within the time limit.
        // The time is checked here too: the dive goes on past a solution, and solutions a few
        // nodes apart (a node count between checks of the clock) outran it by 0.4 s under load.
        while (!sh_.stop->load()) {
            if (sh_.opt.time_limit > 0 && sh_.elapsed() > sh_.opt.time_limit) {
                sh_.stop->store(true);
                break;
            }
            if (sh_.taken.load() == SoloSearch::Shared::kNoConsumer || found <= sh_.taken.load() + kMaxBacklog) break;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }

    void note_partial() {
        best_local_ = placed_;
        best_path_ = path_;
        int prev = sh_.best_placed.load();
        while (placed_ > prev && !sh_.best_placed.compare_exchange_weak(prev, placed_)) {}
        std::lock_guard<std::mutex> lock(sh_.mu);
        if (placed_ <= sh_.best_partial_area) return;
        sh_.best_partial_area = placed_;
        for (auto& l : sh_.best_partial) l.clear();
        for (auto [c, id] : path_) sh_.best_partial[c].push_back(id);
    }

    // Returns true when this restart should end (solution, node limit, stop, time).
    bool dfs(int d) {
        ++pending_nodes_;
        if (++restart_nodes_ > limit_) {
            truncated_ = true;
            return true;
        }
        if ((++tick_ & 1023) == 0) {
            flush_nodes();
            if (sh_.opt.time_limit > 0 && sh_.elapsed() > sh_.opt.time_limit) sh_.stop->store(true);
        }
        if (sh_.stop->load(std::memory_order_relaxed)) return true;
        if (placed_ > best_local_) note_partial();

        const Position& P = stack_[d];
        const int c = choose_colour(P);
        if (c < 0) {
            if (dropped_) return false;  // (a partial layout, noted above)
            on_solution();
            // Looking for many: the dive goes on to the solution's siblings (nearby layouts).
            return !many_ || sh_.stop->load(std::memory_order_relaxed);
        }
        Bitboard fr[kNumColours];
        const int dead_count = waste_bound(P, fr);
        const Bitboard empty = geo_.all_cells() - P.occupied_all();
        // Placing as much as possible: no waste budget, but a branch that cannot place more than
        // the best so far (its pieces left, or the cells still coverable, bound it) ends.
        const int budget = maximise_ ? 1 << 20 : empty.count() - (start_area_ - placed_);
        if (dead_count > budget) return false;
        if (maximise_) {
            int left_area = 0;
            for (int k = 0; k < kNumColours; ++k)
                if ((active_ & ~dropped_) >> k & 1) left_area += area_of(P.pieces_left(k));
            if (placed_ + std::min(left_area, empty.count() - dead_count) <= best_local_) return false;
        } else if (check_now_ && !pieces_fit(P)) {
            return false;
        }

        // Written without a branch: GCC 12 miscompiles the branchy form of this reduction when it
        // vectorises it for AVX2/AVX-512 (-march=native gave other searches than the portable build).
        Bitboard free_others;
        for (int k = 0; k < kNumColours; ++k) {
            const std::uint64_t keep = k == c ? 0 : ~std::uint64_t{0};
            for (int w = 0; w < Bitboard::kWords; ++w) free_others.w[w] |= fr[k].w[w] & keep;
        }
        const std::uint32_t left = P.pieces_left(c);
        const bool triangle_allowed =
            !sh_.opt.triangle_last || left == (1u << kTriangle) || (sh_.triangle_first >> c & 1);
        const int fixed_start = P.started(c) ? -1 : sh_.opt.start_cells[c];
        const bool alt = P.rules().alternate;

        P.generate(c, *ml_);
        auto& cands = cands_[d];
        cands.clear();
        for (auto id : *ml_) {
            const Placement& pl = t_.placement(id);
            if (pl.piece == kTriangle && !triangle_allowed) continue;
            const Bitboard& cm = t_.cells_mask(id);
            if (fixed_start >= 0 && !cm.test(fixed_start)) continue;
            Bitboard blocked;
            if (left == (1u << pl.piece)) {
                blocked = fr[c] - cm;  // the colour's last piece: its own free cells die
            } else {
                blocked = t_.adj_mask(id);
                if (alt) blocked |= t_.alt_forbid_mask(id);
                blocked &= fr[c];
                blocked -= cm;
            }
            const int newly_dead = (blocked - free_others).count();
            if (dead_count + newly_dead > budget) continue;
            const int exposure = (t_.adj_mask(id) & empty).count();
            int score = kScorePerTriangle * pl.size - kDeadCellPenalty * newly_dead - kExposurePenalty * exposure +
                        static_cast<int>(rng_.below(kNoise));
            cands.push_back({score, id});
        }
        if (cands.empty() && maximise_) {  // (the colour can place nothing more here: the others go on)
            dropped_ |= 1u << c;
            stack_[d + 1] = stack_[d];
            const bool end = dfs(d + 1);
            dropped_ &= ~(1u << c);
            return end;
        }
        std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
        // Looking for many: every candidate (the best 8 alone never reach some layouts).
        const int num_cands = static_cast<int>(cands.size());
        const int branch = many_ ? num_cands : std::min(num_cands, kBranching);
        if (branch < num_cands) truncated_ = true;
        for (int i = 0; i < branch; ++i) {
            const int id = cands_[d][i].id;
            const int size = t_.placement(id).size;
            stack_[d + 1] = stack_[d];
            stack_[d + 1].place(c, id);
            path_.push_back({c, id});
            placed_ += size;
            const bool end = dfs(d + 1);
            placed_ -= size;
            path_.pop_back();
            if (end) return true;
        }
        return false;
    }

    SoloSearch::Shared& sh_;
    const MoveTable& t_;
    const Geometry& geo_;
    int index_;
    std::unique_ptr<MoveList> ml_;
    std::vector<Position> stack_;
    std::vector<std::vector<Candidate>> cands_;
    std::vector<std::pair<int, int>> path_, best_path_, solution_path_;
    std::array<int, kNumColours> order_{};
    int active_ = 0;
    int start_area_ = 0;
    bool area_fits_ = true;
    bool check_fit_ = false;  // the start passes pieces_fit
    bool check_now_ = false;  // and this restart prunes on it
    bool maximise_ = false;   // this restart places as much as it can (no complete game exists)
    bool truncated_ = false;  // this restart left candidates untried (or ran out of nodes)
    bool many_ = false;       // looking for many complete layouts (count > 1, and some can exist)
    bool sweeps_ = false;     // and from a position: some restarts sweep the whole tree (kSweepShare)
    long long sweep_nodes_ = 0;  // the last sweep's node budget
    long long sweep_spent_ = 0, restart_spent_ = 0;  // nodes of this worker's sweeps, and of its other restarts
    bool stale_ = false;       // nothing new for long (sweeps alone then, up to stale_cap_ nodes)
    long long stale_cap_ = 0;
    std::uint32_t dropped_ = 0;  // colours this branch has given up on (maximise_: no placement left)
    int placed_ = 0;
    int best_local_ = 0;
    long long limit_ = 0, restart_nodes_ = 0, pending_nodes_ = 0, tick_ = 0;
    Rng rng_;
    bool repairs_ = false;                 // this worker repairs (repair())
    long long restarts_since_repair_ = 0;  // nodes of restarts since the last repairs
    std::uint64_t repair_turns_ = 0;
    std::vector<Bitboard> touch_;                                       // per cell: the cells touching it
    std::array<std::array<std::uint16_t, kNumPieces>, kNumColours> fit_;  // per colour and piece: pieces_fit's last fit
};

}  // namespace

SoloSearch::SoloSearch(const Position& start, const SoloOptions& options)
    : shared_(std::make_unique<Shared>(start, options)) {
    if (options.threads < 1) throw std::invalid_argument("threads must be >= 1");
    if (options.count < 1) throw std::invalid_argument("count must be >= 1");
    shared_->stop = &stop_;
    for (int c = 0; c < kNumColours; ++c)
        if (start.in_play(c)) shared_->target += area_of(start.pieces_left(c));
    if (options.triangle_last) {
        auto moves = std::make_unique<MoveList>();
        const MoveTable& t = start.table();
        for (int c = 0; c < kNumColours; ++c) {
            const std::uint32_t left = start.in_play(c) ? start.pieces_left(c) : 0;
            if (!(left >> kTriangle & 1) || left == (1u << kTriangle)) continue;
            start.generate(c, *moves);
            bool only_triangles = moves->size > 0;
            for (auto id : *moves) only_triangles = only_triangles && t.placement(id).piece == kTriangle;
            if (only_triangles) shared_->triangle_first |= static_cast<std::uint8_t>(1u << c);
        }
    }
}

SoloSearch::~SoloSearch() = default;  // (workers_ stops and joins the workers before shared_ goes)

void SoloSearch::start() {
    shared_->t0 = Clock::now();
    // A colour that must still place pieces but has no legal move can never complete: for the
    // colours asked about (can_place_all) that is the answer, no search; for a game, the search
    // places what the other colours can (Shared::stuck).
    const Position& p = shared_->start;
    for (int c = 0; c < kNumColours; ++c)
        if (shared_->opt.colours >> c & 1 && p.in_play(c) && p.pieces_left(c) && !p.has_move(c)) return;
    for (int c = 0; c < kNumColours && !shared_->opt.colours; ++c)
        if (p.in_play(c) && p.pieces_left(c) && !p.has_move(c)) shared_->stuck |= static_cast<std::uint8_t>(1u << c);
    bool to_place = shared_->opt.colours != 0;  // (for a game, none: it is over, nothing to search)
    for (int c = 0; c < kNumColours; ++c)
        if (p.in_play(c) && p.pieces_left(c) && !(shared_->stuck >> c & 1)) to_place = true;
    if (!to_place) return;
    for (int i = 0; i < shared_->opt.threads; ++i)
        workers_.start([this, i] {
            Worker w(*shared_, i);
            w.run();
            stop();  // one worker ending (success or time) ends the race; a failure stops it too
        });
}

bool SoloSearch::wait_for(double seconds) { return workers_.wait_for(seconds); }

void SoloSearch::join() { workers_.join(); }

SoloStats SoloSearch::stats() const {
    SoloStats s;
    s.nodes = shared_->nodes.load();
    s.restarts = shared_->restarts.load();
    s.seconds = shared_->elapsed();
    s.best_placed = shared_->best_placed.load();
    s.target = shared_->target;
    std::lock_guard<std::mutex> lock(shared_->mu);
    s.solutions = static_cast<int>(shared_->solutions.size());
    s.all_found = shared_->all_found.load();
    if (s.solutions > 0) s.best_placed = s.target;
    return s;
}

void SoloSearch::taken(std::size_t n) { shared_->taken.store(n); }

std::vector<SoloSolution> SoloSearch::solutions(std::size_t first) const {
    std::lock_guard<std::mutex> lock(shared_->mu);
    const auto& all = shared_->solutions;
    return {all.begin() + static_cast<std::ptrdiff_t>(std::min(first, all.size())), all.end()};
}

SoloSolution SoloSearch::best() const {
    std::array<std::vector<int>, kNumColours> lists;
    {
        std::lock_guard<std::mutex> lock(shared_->mu);
        if (!shared_->solutions.empty()) return shared_->solutions.front();
        lists = shared_->best_partial;
    }
    return replay_layout(shared_->start, lists);
}

std::vector<std::pair<int, int>> SoloSearch::best_partial_moves() const { return shared_->best_partial_moves(); }

SoloSolution solve_solo(const Position& start, const SoloOptions& options, SoloStats* stats) {
    SoloSearch search(start, options);
    search.start();
    search.join();
    if (stats) *stats = search.stats();
    return search.best();
}

SoloSolution replay_layout(const Position& start, const std::array<std::vector<int>, kNumColours>& per_colour) {
    const MoveTable& t = start.table();
    Position P = start;
    std::array<std::size_t, kNumColours> next{};
    auto ml = std::make_unique<MoveList>();
    SoloSolution s;
    while (!P.is_over()) {
        const int c = P.to_move();
        int id = -1;
        while (next[c] < per_colour[c].size()) {
            int cand = per_colour[c][next[c]++];
            if (P.check(c, cand) == Illegal::None) {
                id = cand;
                break;
            }
        }
        if (id < 0) {
            // Forced move outside the layout: prefer cells no other colour still plans to use,
            // then the largest piece, the triangle only as the last piece.
            Bitboard planned;
            for (int k = 0; k < kNumColours; ++k)
                if (k != c)
                    for (std::size_t i = next[k]; i < per_colour[k].size(); ++i) planned |= t.cells_mask(per_colour[k][i]);
            P.generate(c, *ml);
            const bool only_triangle = P.pieces_left(c) == (1u << kTriangle);
            int best_score = -1 << 30;
            for (auto m : *ml) {
                const Placement& pl = t.placement(m);
                int sc = pl.size * 4 - (t.cells_mask(m).intersects(planned) ? 1000 : 0) -
                         (pl.piece == kTriangle && !only_triangle ? 100 : 0);
                if (sc > best_score) {
                    best_score = sc;
                    id = m;
                }
            }
            if (id < 0) throw std::logic_error("replay: colour to move has no legal move");
        }
        P.play(id);
        s.moves.push_back({c, id});
    }
    s.complete = true;
    for (int c = 0; c < kNumColours; ++c) {
        if (!start.in_play(c)) continue;
        s.scores[c] = P.score(c);
        if (P.pieces_left(c) != 0) s.complete = false;
        s.unplaced_triangles += kTrianglesPerColour - P.placed_triangles(c);
    }
    return s;
}

std::string layout_key(const Position& fin) {
    const Geometry& g = fin.table().geo();
    const int n = g.num_cells();
    std::vector<int> colour(n, -1);
    for (int c = 0; c < kNumColours; ++c) fin.occupied(c).for_each([&](int cell) { colour[cell] = c; });
    std::string best;
    std::string cur(n, '.');
    for (int k = 0; k < kNumSymmetries; ++k) {
        std::vector<int> img(n, -1);
        for (int cell = 0; cell < n; ++cell) img[g.symmetric_cell(k, cell)] = colour[cell];
        int rename[kNumColours] = {-1, -1, -1, -1};
        int next = 0;
        for (int cell = 0; cell < n; ++cell) {
            int c = img[cell];
            if (c < 0) {
                cur[cell] = '.';
                continue;
            }
            if (rename[c] < 0) rename[c] = next++;
            cur[cell] = static_cast<char>('a' + rename[c]);
        }
        if (k == 0 || cur < best) best = cur;
    }
    return best;
}

}  // namespace trigon::solver
