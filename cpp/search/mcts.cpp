#include "search/mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <optional>

#include "core/playout.h"
#include "core/thread_group.h"
#include "search/fast_playout.h"

namespace trigon::search {

namespace {

constexpr int kMaxDepth = 4 * kNumPieces + 8;

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Final result of every side, 0..1: the place among the sides (win 1, loss 0, ties shared)
// with a small share for the score margin so that decided games still fight for points.
struct Outcome {
    std::array<float, kNumColours> side_value{};
    std::array<float, kNumColours> score{};
};

Outcome outcome_of(const Position& pos, const Params& p) {
    Outcome o;
    std::array<int, kNumColours> side_score{};
    std::array<int, kNumColours> side_colours{};
    for (int c = 0; c < kNumColours; ++c) {
        if (!pos.in_play(c)) continue;
        o.score[c] = static_cast<float>(pos.score(c));
        side_score[p.side_of_colour[c]] += pos.score(c);
        side_colours[p.side_of_colour[c]] += 1;
    }
    int nsides = 0;
    for (int s = 0; s < kNumColours; ++s) nsides += side_colours[s] > 0;
    for (int s = 0; s < kNumColours; ++s) {
        if (!side_colours[s]) continue;
        if (nsides == 1) {
            // Solo: only the score counts (-110 .. +20 per colour).
            o.side_value[s] = static_cast<float>(side_score[s] + 110 * side_colours[s]) /
                              static_cast<float>(130 * side_colours[s]);
            continue;
        }
        float place = 0, others = 0;
        for (int t = 0; t < kNumColours; ++t) {
            if (t == s || !side_colours[t]) continue;
            place += side_score[s] > side_score[t] ? 1.0f : side_score[s] == side_score[t] ? 0.5f : 0.0f;
            others += static_cast<float>(side_score[t]);
        }
        place /= static_cast<float>(nsides - 1);
        const float margin = static_cast<float>(side_score[s]) - others / static_cast<float>(nsides - 1);
        const float m = std::clamp(margin / (40.0f * static_cast<float>(side_colours[s])), -1.0f, 1.0f);
        o.side_value[s] = (1 - p.score_weight) * place + p.score_weight * (0.5f + 0.5f * m);
    }
    return o;
}

// 1 / sqrt(v + 1), from a table for the visit counts that dominate the selection loop.
float inv_sqrt_1p(std::uint32_t v) {
    static const auto table = [] {
        std::array<float, 4096> t{};
        for (std::size_t i = 0; i < t.size(); ++i) t[i] = 1.0f / std::sqrt(static_cast<float>(i) + 1.0f);
        return t;
    }();
    return v < table.size() ? table[v] : 1.0f / std::sqrt(static_cast<float>(v) + 1.0f);
}

template <class T>
void atomic_add(std::atomic<T>& a, T v) {
    a.fetch_add(v, std::memory_order_relaxed);
}

}  // namespace

long level_simulations(int level) {
    static constexpr long kSims[] = {100, 246, 457, 876, 1882, 5506, 19819, 99092, 495465};
    if (level < kMinLevel || level > kMaxLevel) throw std::invalid_argument("level must be 1..9");
    return kSims[level - 1];
}

// ---------------------------------------------------------------------------------------------


// ---------------------------------------------------------------------------------------------

struct Searcher::Worker {
    Worker(const Position& root, std::uint64_t seed, bool with_uniform) : pos(root), rng(seed), sampled(root) {
        if (with_uniform) uniform.emplace(root);
    }
    Position pos;
    Rng rng;
    // Built once per search from the root (about a millisecond); each simulation restores the
    // root's cached move sets and replays the tree moves incrementally.
    std::optional<RandomPlayout> uniform;
    SampledPlayout sampled;
    MoveList moves;
    std::array<std::uint32_t, kMaxDepth> path{};
    std::array<std::int8_t, kMaxDepth> movers{};
};

Searcher::Searcher() = default;
Searcher::~Searcher() = default;

void Searcher::clear() {
    if (running_.exchange(true)) throw std::invalid_argument("the tree cannot be cleared while it is searched");
    struct ClearOnExit {
        std::atomic<bool>& flag;
        ~ClearOnExit() { flag.store(false); }
    } not_running_on_exit{running_};
    std::lock_guard<std::mutex> lock(store_mutex_);
    store_.reset();
    root_pos_.reset();
    root_ = 0;
}

// `own_dead`: cells where the mover's new attach points would not count (covered, forbidden to
// it, or attach points already); `theirs`: the opponents' attach points.
TRIGON_CLONES float Searcher::prior_of(const MoveTable& t, int id, const Bitboard& own_dead, const Bitboard& theirs) const {
    if (!params_.use_priors) return 0.5f;
    // Larger pieces first: unplaced triangles are what a colour loses at the end.
    float prior = 0.30f + 0.05f * static_cast<float>(t.placement(id).size);
    if (params_.attach_prior != 0) {
        const int fresh = (t.attach_mask(id) - own_dead - t.adj_mask(id)).count();
        prior += params_.attach_prior * (static_cast<float>(std::min(fresh, 8)) / 8.0f - 0.5f);
    }
    if (params_.block_prior != 0) {
        const int blocked = (t.cells_mask(id) & theirs).count();
        prior += params_.block_prior * static_cast<float>(std::min(blocked, 4)) / 4.0f;
    }
    return prior;
}

bool Searcher::expand(std::uint32_t index, const Position& pos, MoveList& ml) {
    Node& node = (*store_)[index];
    std::uint32_t expected = 0;
    if (!node.first_child.compare_exchange_strong(expected, kExpanding, std::memory_order_acq_rel)) return false;
    // This worker owns the expansion; the others play out from here meanwhile.
    const int c = pos.to_move();
    pos.generate(c, ml);
    const std::uint32_t first = ml.size ? store_->alloc(static_cast<std::uint32_t>(ml.size)) : 0;
    if (first == 0) {
        if (ml.size) store_full_.store(true, std::memory_order_relaxed);
        node.first_child.store(0, std::memory_order_release);
        return false;
    }
    Bitboard own_dead = pos.occupied_all() | pos.forbidden(c) | pos.attach_points(c);
    Bitboard theirs;
    for (int k = 0; k < kNumColours; ++k)
        if (k != c && pos.in_play(k) && params_.side_of_colour[k] != params_.side_of_colour[c])
            theirs |= pos.attach_points(k);
    for (int i = 0; i < ml.size; ++i) {
        Node& child = (*store_)[first + static_cast<std::uint32_t>(i)];
        child.first_child.store(0, std::memory_order_relaxed);
        child.visits.store(0, std::memory_order_relaxed);
        child.value_sum.store(0, std::memory_order_relaxed);
        child.move = ml.moves[i];
        child.prior = prior_of(pos.table(), ml.moves[i], own_dead, theirs);
        child.num_children = 0;
    }
    node.num_children = static_cast<std::uint16_t>(ml.size);
    node.first_child.store(first, std::memory_order_release);
    return true;
}

void Searcher::simulate(Worker& w) {
    NodeStore& store = *store_;
    Position& pos = w.pos;
    pos = *root_pos_;
    std::uint32_t index = root_;
    int depth = 0;
    store[index].visits.fetch_add(1, std::memory_order_relaxed);
    const float c_explore = params_.exploration;
    const float pw = params_.prior_weight;
    for (;;) {
        Node& node = store[index];
        std::uint32_t first = node.first_child.load(std::memory_order_acquire);
        if (first == 0 || first == kExpanding) {
            if (pos.is_over() || first == kExpanding) break;
            const bool ripe = index == root_ ||
                              node.visits.load(std::memory_order_relaxed) > static_cast<std::uint32_t>(params_.expand_threshold);
            if (!ripe || store_full_.load(std::memory_order_relaxed) || !expand(index, pos, w.moves)) break;
            first = node.first_child.load(std::memory_order_acquire);
        }
        // UCT over the children for the side of the colour to move; virtual loss: in-flight
        // visits count with value 0 until their result comes back.
        const int n = node.num_children;
        const float explore = c_explore * std::sqrt(std::log(static_cast<float>(node.visits.load(std::memory_order_relaxed)) + 1.0f));
        float best = -1e30f;
        std::uint32_t best_index = first;
        for (int i = 0; i < n; ++i) {
            const Node& ch = store[first + static_cast<std::uint32_t>(i)];
            const std::uint32_t v = ch.visits.load(std::memory_order_relaxed);
            float score;
            if (v == 0) {
                score = ch.prior + explore;  // unvisited: the prior, full exploration bonus
            } else {
                const float fv = static_cast<float>(v);
                const float s = static_cast<float>(ch.value_sum.load(std::memory_order_relaxed)) * (1.0f / kValueScale);
                score = (s + ch.prior * pw) / (fv + pw) + explore * inv_sqrt_1p(v);
            }
            if (score > best) {
                best = score;
                best_index = first + static_cast<std::uint32_t>(i);
            }
        }
        Node& chosen = store[best_index];
        chosen.visits.fetch_add(1, std::memory_order_relaxed);
        w.movers[depth] = static_cast<std::int8_t>(pos.to_move());
        w.path[depth++] = best_index;
        pos.play(chosen.move);
        index = best_index;
        if (depth >= kMaxDepth) break;
    }
    const Position* final_pos = &pos;
    if (!pos.is_over()) {
        if (params_.playout == PlayoutKind::Sampled) {
            w.sampled.set_large_piece_bias(params_.playout_large_bias);
            w.sampled.set_give_up_tries(params_.playout_give_up);
            w.sampled.reset(pos);
            w.sampled.run(w.rng);
            final_pos = &w.sampled.position();
        } else {
            RandomPlayout& rp = *w.uniform;
            rp.reset();
            for (int d = 0; d < depth; ++d) rp.play(store[w.path[d]].move);
            rp.run(w.rng);
            final_pos = &rp.position();
        }
    }
    const Outcome o = outcome_of(*final_pos, params_);
    for (int d = 0; d < depth; ++d) {
        const float v = o.side_value[params_.side_of_colour[w.movers[d]]];
        store[w.path[d]].value_sum.fetch_add(static_cast<std::uint64_t>(std::lround(v * kValueScale)),
                                            std::memory_order_relaxed);
    }
    std::array<float, kNumColours> colour_value{};
    for (int c = 0; c < kNumColours; ++c) colour_value[c] = o.side_value[params_.side_of_colour[c]];
    if (depth > 0) {
        const std::uint32_t first = store[root_].first_child.load(std::memory_order_acquire);
        RootStat& rs = *root_stats_[w.path[0] - first];
        rs.count.fetch_add(1, std::memory_order_relaxed);
        for (int c = 0; c < kNumColours; ++c) {
            atomic_add(rs.value[c], static_cast<double>(colour_value[c]));
            atomic_add(rs.score[c], static_cast<double>(o.score[c]));
        }
    }
    for (int c = 0; c < kNumColours; ++c) {
        atomic_add(total_value_[c], static_cast<double>(colour_value[c]));
        atomic_add(total_score_[c], static_cast<double>(o.score[c]));
    }
    sims_done_.fetch_add(1, std::memory_order_relaxed);
}

void Searcher::worker_loop(int index) {
    Worker& w = *workers_[static_cast<std::size_t>(index)];
    const long max_sims = params_.max_simulations;
    // The workers keep the time limit too: the calling thread, which checks it, may be held up
    // (in a slow progress callback, or waiting for a core among many workers).
    const bool timed = params_.max_seconds > 0;
    const std::atomic<std::uint32_t>& root_visits = (*store_)[root_].visits;
    while (!stop_.load(std::memory_order_relaxed)) {
        if (timed && Clock::now() >= deadline_) break;
        if (root_visits.load(std::memory_order_relaxed) >= params_.max_root_visits) break;
        if (max_sims > 0 && sims_started_.fetch_add(1, std::memory_order_relaxed) >= max_sims) break;
        simulate(w);
    }
}

// Follows the moves from the old root to `pos` through the tree (at most one move per colour);
// true when the new position's node is found and made the root.
bool Searcher::try_reuse(const Position& pos, const Params& params) {
    if (!params.reuse_tree || !store_ || !root_pos_) return false;
    const Position& old = *root_pos_;
    const Rules& a = old.rules();
    const Rules& b = pos.rules();
    if (a.side != b.side || a.colours != b.colours || a.alternate != b.alternate || a.start_rule != b.start_rule)
        return false;
    if (tree_params_.side_of_colour != params.side_of_colour || tree_params_.score_weight != params.score_weight ||
        tree_params_.use_priors != params.use_priors || tree_params_.attach_prior != params.attach_prior ||
        tree_params_.block_prior != params.block_prior)
        return false;
    if (old == pos) return true;
    const MoveTable& t = pos.table();
    std::array<int, kNumColours> played{};
    for (int c = 0; c < kNumColours; ++c) {
        played[c] = -1;
        if ((old.occupied(c) - pos.occupied(c)).any()) return false;
        const Bitboard fresh = pos.occupied(c) - old.occupied(c);
        if (fresh.none()) continue;
        int cells[kMaxPieceSize + 1];
        int n = 0;
        bool too_many = false;
        fresh.for_each([&](int cell) {
            if (n <= kMaxPieceSize) cells[n++] = cell; else too_many = true;
        });
        if (too_many || n > kMaxPieceSize) return false;
        played[c] = t.find(cells, n);
        if (played[c] < 0) return false;
    }
    Position q = old;
    std::uint32_t index = root_;
    for (int step = 0; step < kNumColours && !(q == pos); ++step) {
        if (q.is_over()) return false;
        const int c = q.to_move();
        if (played[c] < 0) return false;
        const Node& node = (*store_)[index];
        const std::uint32_t first = node.first_child.load(std::memory_order_acquire);
        if (first == 0 || first == kExpanding) return false;
        std::uint32_t next = 0;
        for (std::uint32_t i = 0; i < node.num_children; ++i)
            if ((*store_)[first + i].move == played[c]) next = first + i;
        if (next == 0) return false;
        q.play(played[c]);
        played[c] = -1;
        index = next;
    }
    if (!(q == pos)) return false;
    compact(index);
    return true;
}

// Copies the subtree of `new_root` into a fresh store (the rest of the old tree is dropped).
void Searcher::compact(std::uint32_t new_root) {
    auto fresh = std::make_unique<NodeStore>();
    fresh->reset(params_.max_nodes);
    auto copy_fields = [](const Node& from, Node& to) {
        to.first_child.store(0, std::memory_order_relaxed);
        to.visits.store(from.visits.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to.value_sum.store(from.value_sum.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to.prior = from.prior;
        to.move = from.move;
        to.num_children = 0;
    };
    const std::uint32_t r = fresh->alloc(1);
    copy_fields((*store_)[new_root], (*fresh)[r]);
    std::deque<std::pair<std::uint32_t, std::uint32_t>> queue{{new_root, r}};
    while (!queue.empty()) {
        auto [from, to] = queue.front();
        queue.pop_front();
        const Node& src = (*store_)[from];
        const std::uint32_t first = src.first_child.load(std::memory_order_relaxed);
        if (first == 0 || first == kExpanding || src.num_children == 0) continue;
        const std::uint32_t dst_first = fresh->alloc(src.num_children);
        if (dst_first == 0) continue;  // over the (new) budget: the node stays a leaf
        for (std::uint32_t i = 0; i < src.num_children; ++i) {
            copy_fields((*store_)[first + i], (*fresh)[dst_first + i]);
            queue.emplace_back(first + i, dst_first + i);
        }
        (*fresh)[to].num_children = src.num_children;
        (*fresh)[to].first_child.store(dst_first, std::memory_order_relaxed);
    }
    std::lock_guard<std::mutex> lock(store_mutex_);
    store_ = std::move(fresh);
    root_ = r;
}

Analysis Searcher::snapshot(double seconds) const {
    Analysis a;
    const NodeStore& store = *store_;
    const Position& pos = *root_pos_;
    a.to_move = pos.to_move();
    a.seconds = seconds;
    a.nodes = store.used();
    a.simulations = sims_done_.load(std::memory_order_relaxed);
    a.reused_visits = reused_visits_;
    const double n = static_cast<double>(std::max<long>(a.simulations, 1));
    for (int c = 0; c < kNumColours; ++c) {
        a.value[c] = static_cast<float>(total_value_[c].load(std::memory_order_relaxed) / n);
        a.expected_score[c] = static_cast<float>(total_score_[c].load(std::memory_order_relaxed) / n);
    }
    const Node& root = store[root_];
    const std::uint32_t first = root.first_child.load(std::memory_order_acquire);
    if (first == 0 || first == kExpanding) return a;
    for (std::uint32_t i = 0; i < root.num_children; ++i) {
        const Node& ch = store[first + i];
        const std::uint32_t v = ch.visits.load(std::memory_order_relaxed);
        if (v == 0 && root.num_children > 1) continue;
        MoveInfo m;
        m.move = ch.move;
        m.visits = v;
        m.value = v ? static_cast<float>(ch.value_sum.load(std::memory_order_relaxed)) / kValueScale / static_cast<float>(v)
                    : ch.prior;
        m.prior = ch.prior;
        if (i < root_stats_.size()) {
            const RootStat& rs = *root_stats_[i];
            const std::uint32_t k = rs.count.load(std::memory_order_relaxed);
            for (int c = 0; c < kNumColours; ++c) {
                m.value_per_colour[c] = k ? static_cast<float>(rs.value[c].load(std::memory_order_relaxed) / k) : m.value;
                m.score_per_colour[c] = k ? static_cast<float>(rs.score[c].load(std::memory_order_relaxed) / k) : 0.0f;
            }
        }
        a.moves.push_back(m);
    }
    std::stable_sort(a.moves.begin(), a.moves.end(), [](const MoveInfo& x, const MoveInfo& y) {
        return x.visits != y.visits ? x.visits > y.visits : x.value > y.value;
    });
    if (!a.moves.empty()) a.best_move = a.moves.front().move;
    // Principal variation: the most visited child, level by level.
    Position q = pos;
    std::uint32_t index = root_;
    for (int d = 0; d < kMaxDepth && !q.is_over(); ++d) {
        const Node& node = store[index];
        const std::uint32_t f = node.first_child.load(std::memory_order_acquire);
        if (f == 0 || f == kExpanding) break;
        std::uint32_t best = 0, best_visits = 0;
        for (std::uint32_t i = 0; i < node.num_children; ++i) {
            const std::uint32_t v = store[f + i].visits.load(std::memory_order_relaxed);
            if (v > best_visits) best_visits = v, best = f + i;
        }
        if (best == 0) break;
        a.pv.push_back(store[best].move);
        a.pv_colours.push_back(q.to_move());
        q.play(store[best].move);
        index = best;
    }
    return a;
}

Analysis Searcher::run(const Position& pos, const Params& params, const Poll& poll, const Progress& progress,
                       std::optional<std::uint64_t> stops_seen) {
    if (pos.is_over()) throw GameOverError();
    if (params.threads < 1 || params.threads > 256) throw std::invalid_argument("threads must be 1..256");
    for (auto s : params.side_of_colour)
        if (s < 0 || s >= kNumColours) throw std::invalid_argument("side_of_colour entries must be 0..3");
    if (params.max_simulations < 0 || params.max_seconds < 0)
        throw std::invalid_argument("simulation and time limits must be >= 0");
    if (params.playout != PlayoutKind::Uniform && params.playout != PlayoutKind::Sampled)  // (an enum takes any byte)
        throw std::invalid_argument("playout must be UNIFORM or SAMPLED");
    // (within one simulation: a stop is seen only between them)
    if (params.playout_give_up < 0 || params.playout_give_up > 1'000'000)
        throw std::invalid_argument("playout_give_up must be 0..1000000");
    // (node indices are 32-bit, the top one marks a node being expanded)
    if (params.max_nodes < 1 || params.max_nodes >= kExpanding)
        throw std::invalid_argument("max_nodes must be 1..4294967294");
    if (running_.exchange(true)) throw std::invalid_argument("this searcher is searching already: one search at a time");
    struct ClearOnExit {
        std::atomic<bool>& flag;
        ~ClearOnExit() { flag.store(false); }
    } not_running_on_exit{running_};
    const auto t0 = Clock::now();
    params_ = params;
    // (capped at a year: a time past the clock's range would overflow; NaN is no limit)
    const double limit = params.max_seconds > 0 ? std::min(params.max_seconds, 3.0e7) : 0.0;
    deadline_ = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
    stop_.store(false);
    if (stops_seen && stop_count_.load() != *stops_seen) stop_.store(true);  // asked since the caller began
    store_full_.store(false);
    sims_started_.store(0);
    sims_done_.store(0);
    for (auto& v : total_value_) v.store(0);
    for (auto& v : total_score_) v.store(0);

    reused_visits_ = 0;
    if (try_reuse(pos, params)) {
        reused_visits_ = (*store_)[root_].visits.load();
    } else {
        // Built whole before it replaces the old tree: a failure (memory) leaves no half tree.
        auto fresh = std::make_unique<NodeStore>();
        fresh->reset(params.max_nodes);
        std::lock_guard<std::mutex> lock(store_mutex_);
        store_ = std::move(fresh);
        root_ = store_->alloc(1);
    }
    root_pos_ = std::make_unique<Position>(pos);
    tree_params_ = params;
    if ((*store_)[root_].first_child.load() == 0) {
        auto ml = std::make_unique<MoveList>();
        if (!expand(root_, pos, *ml)) {
            // The budget always holds the root and its moves (2,478 on the empty board): a
            // fresh tree that does, so a small max_nodes bounds the tree without failing here.
            pos.generate(pos.to_move(), *ml);
            {
                auto fresh = std::make_unique<NodeStore>();
                fresh->reset(std::max<std::size_t>(params.max_nodes, 2 + static_cast<std::size_t>(ml->size)));  // (+ index 0)
                std::lock_guard<std::mutex> lock(store_mutex_);
                store_ = std::move(fresh);
                root_ = store_->alloc(1);
            }
            reused_visits_ = 0;
            store_full_.store(false);
            if (!expand(root_, pos, *ml)) throw std::logic_error("the root has no moves although the game goes on");
        }
    }
    const std::uint32_t nroot = (*store_)[root_].num_children;
    root_stats_.clear();
    for (std::uint32_t i = 0; i < nroot; ++i) root_stats_.push_back(std::make_unique<RootStat>());

    if (nroot == 1) {
        Analysis a = snapshot(since(t0));
        a.forced = true;
        return a;
    }
    if (params.max_simulations == 0 && params.max_seconds == 0 && !poll)
        throw std::invalid_argument("a search needs a simulation or time limit");

    workers_.clear();
    for (int i = 0; i < params.threads; ++i)
        workers_.push_back(std::make_unique<Worker>(pos, params.seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(i),
                                                    params.playout == PlayoutKind::Uniform));
    // (a worker's exception stops the others and is rethrown here once all are joined)
    ThreadGroup group([this] { halt(); });
    for (int i = 0; i < params.threads; ++i) group.start([this, i] { worker_loop(i); });

    bool stopped = false, time_up = false;
    long last_progress_sims = 0;
    double last_progress_time = 0;
    group.wait(std::chrono::milliseconds(2), [&] {
        const double elapsed = since(t0);
        if (params.max_seconds > 0 && elapsed >= params.max_seconds) {
            time_up = true;
            halt();
        }
        if (poll && !poll()) {
            stopped = true;
            halt();
        }
        const long done = sims_done_.load(std::memory_order_relaxed);
        const bool due = (params.progress_every_simulations > 0 && done - last_progress_sims >= params.progress_every_simulations) ||
                         (params.progress_every_seconds > 0 && elapsed - last_progress_time >= params.progress_every_seconds);
        if (progress && due && !stop_.load()) {
            last_progress_sims = done;
            last_progress_time = elapsed;
            progress(snapshot(elapsed));  // (its exception: the group stops and joins on the way out)
        }
    });
    group.join();
    Analysis a = snapshot(since(t0));
    if (a.best_move < 0) {  // stopped before any simulation ended: the move the priors like best
        const NodeStore& store = *store_;
        const std::uint32_t first = store[root_].first_child.load();
        float best_prior = -1e30f;
        for (std::uint32_t i = 0; i < store[root_].num_children; ++i) {
            const Node& child = store[first + i];
            if (child.prior > best_prior) best_prior = child.prior, a.best_move = child.move;
        }
    }
    // Stopped early: by the poll, or by stop() from another thread (not by a limit).
    a.stopped = stopped || (stop_.load() && !time_up &&
                            (params.max_simulations == 0 || sims_done_.load() < params.max_simulations));
    return a;
}

}  // namespace trigon::search
