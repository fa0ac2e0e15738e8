#include "search/batch.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <memory>

#include "core/thread_group.h"
#include "search/mcts.h"

namespace trigon {

namespace {

void write_bits(const Bitboard& b, std::int8_t* out) {
    b.for_each([&](int i) { out[i] = 1; });
}

// A largest legal piece of the colour to move, uniform among the placements of that size.
int greedy_move(const RandomPlayout& po, Rng& rng, std::uint16_t* buffer) {
    const int c = po.to_move();
    const int n = po.legal_moves(c, buffer);
    if (n == 0) return kPass;
    const MoveTable& t = po.position().table();
    int best = 0, count = 0;
    for (int k = 0; k < n; ++k) {
        int s = t.placement(buffer[k]).size;
        if (s > best) { best = s; count = 0; }
        if (s == best) buffer[count++] = buffer[k];  // compacts the best ones to the front
    }
    return buffer[rng.below(static_cast<std::uint32_t>(count))];
}

}  // namespace

void write_planes(const Position& pos, int colour, std::int8_t* planes, std::int8_t* pieces) {
    const int cells = pos.table().geo().num_cells();
    std::memset(planes, 0, static_cast<std::size_t>(kPlaneChannels) * cells);
    for (int k = 0; k < kNumColours; ++k) {
        const int c = (colour + k) % kNumColours;
        write_bits(pos.occupied(c), planes + k * cells);
        const std::uint32_t left = pos.in_play(c) ? pos.pieces_left(c) : 0;
        for (int p = 0; p < kNumPieces; ++p) pieces[k * kNumPieces + p] = static_cast<std::int8_t>(left >> p & 1);
    }
    write_bits(pos.seed_cells(colour), planes + 4 * cells);
    write_bits(pos.forbidden(colour), planes + 5 * cells);
}

struct GameWorker {
    explicit GameWorker(const Position& start) : playout(start), buffer(kMaxPlacements) {}
    RandomPlayout playout;
    std::vector<std::uint16_t> buffer;
    std::unique_ptr<search::Searcher> searcher;
};

namespace {

// The search's move at cfg.level, seeded from the game's generator (deterministic per game).
int search_move(GameWorker& w, const BatchConfig& cfg, Rng& rng, const std::atomic<bool>* stop) {
    if (!w.searcher) w.searcher = std::make_unique<search::Searcher>();
    search::Params p;
    p.side_of_colour = cfg.side_of_colour;
    p.threads = 1;
    p.seed = rng.next();
    p.max_simulations = search::level_simulations(cfg.level);
    p.reuse_tree = false;  // every search fresh: a game does not depend on the thread's earlier games
    const search::Searcher::Poll poll = [stop] { return !stop->load(std::memory_order_relaxed); };
    return w.searcher->run(w.playout.position(), p, stop ? poll : search::Searcher::Poll{}).best_move;
}

}  // namespace

int max_moves(const Position& start) {
    int n = 0;
    for (int c = 0; c < kNumColours; ++c)
        if (start.in_play(c)) n += std::popcount(start.pieces_left(c));
    return n;
}

void play_game(GameWorker& w, const BatchConfig& cfg, long i, const BatchOutput& out, int max_moves,
               const std::atomic<bool>* stop) {
    RandomPlayout& po = w.playout;
    po.reset();
    Rng rng(cfg.seed + static_cast<std::uint64_t>(i));
    const std::size_t row = static_cast<std::size_t>(i) * max_moves;
    const int cells = po.position().table().geo().num_cells();
    int k = 0;
    while (!po.is_over() && k < max_moves) {
        if (stop && stop->load(std::memory_order_relaxed)) break;  // (the batch is abandoned)
        const int c = po.to_move();
        if (out.planes) {
            const std::size_t at = row + k;
            write_planes(po.position(), c, out.planes + at * kPlaneChannels * cells, out.pieces + at * 4 * kNumPieces);
        }
        int id;
        switch (cfg.policy) {
            case Policy::Random: id = po.random_move(rng); break;
            case Policy::Greedy: id = greedy_move(po, rng, w.buffer.data()); break;
            default:
                id = search_move(w, cfg, rng, stop);
                if (stop && stop->load(std::memory_order_relaxed)) {  // stopped: maybe no move chosen
                    id = kPass;
                    break;
                }
                // A bad id would corrupt the playout's move sets: refuse it loudly.
                if (id < 0 || id >= po.position().table().num_placements() ||
                    po.position().check(c, id) != Illegal::None)
                    throw std::logic_error("the search chose an illegal move");
                break;
        }
        if (id == kPass) break;  // stopped (or, not reached, a colour to move without a move)
        po.play(id);
        out.moves[row + k] = static_cast<std::int16_t>(id);
        out.colours[row + k] = static_cast<std::int8_t>(c);
        ++k;
    }
    for (int j = k; j < max_moves; ++j) {
        out.moves[row + j] = -1;
        out.colours[row + j] = -1;
    }
    out.lengths[i] = static_cast<std::int16_t>(k);
    for (int c = 0; c < kNumColours; ++c)
        out.scores[static_cast<std::size_t>(i) * kNumColours + c] =
            static_cast<std::int16_t>(po.position().in_play(c) ? po.position().score(c) : 0);
    if (out.finished) out.finished[i] = po.is_over() ? 1 : 0;
}

bool play_games(const Position& start, const BatchConfig& cfg, const BatchOutput& out,
                const std::function<bool()>& keep_going) {
    if (cfg.policy == Policy::Search) search::level_simulations(cfg.level);  // throws for a bad level
    const int mm = max_moves(start);
    const int threads = static_cast<int>(std::clamp<long>(cfg.threads, 1, std::max<long>(cfg.games, 1)));
    std::atomic<long> next{0};
    std::atomic<bool> stop{false};
    // (a worker's exception stops the others and is rethrown once all are joined)
    ThreadGroup group([&] { stop = true; });
    for (int t = 0; t < threads; ++t)
        group.start([&] {
            GameWorker w(start);
            for (long i; !stop.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < cfg.games;)
                play_game(w, cfg, i, out, mm, &stop);
        });
    bool completed = true;
    group.wait(std::chrono::milliseconds(20), [&] {
        if (!keep_going()) {
            stop = true;
            completed = false;
        }
    });
    group.join();
    return completed && next.load() >= cfg.games;
}

Illegal EnvState::play(int id) {
    const Position& pos = playout_.position();
    if (pos.is_over()) return Illegal::GameOver;
    if (id < 0 || id >= pos.table().num_placements()) return Illegal::BadPlacement;
    Illegal why = pos.check(pos.to_move(), id);
    if (why == Illegal::None) playout_.play(id);
    return why;
}

int EnvState::legal_moves(int c) {
    const Position& pos = position();
    if (!pos.in_play(c)) return 0;
    if (pos.started(c)) return playout_.legal_moves(c, buffer_.data());
    // The playout brings a colour's start moves up to date on its own turn only (others' first
    // pieces take and reserve start cells): for the other colours, generate them afresh.
    if (!scratch_) scratch_ = std::make_unique<MoveList>();
    const int n = pos.generate(c, *scratch_);
    std::copy(scratch_->begin(), scratch_->end(), buffer_.begin());
    return n;
}

int EnvState::write_mask(int c, std::int8_t* mask) {
    std::memset(mask, 0, static_cast<std::size_t>(position().table().num_placements()));
    const int n = legal_moves(c);
    for (int k = 0; k < n; ++k) mask[buffer_[k]] = 1;
    return n;
}

}  // namespace trigon
