// Batched self-play on several threads, and the per-step state of the learning environment.
// Everything here is plain C++ (no Python): the bindings release the GIL around it.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/playout.h"
#include "core/position.h"
#include "core/random.h"

namespace trigon {

// Observation planes of one colour, cell-indexed (channel-major, int8 0/1):
//   0..3  occupancy by colour, relative to the observer (it, then the next colours in turn order)
//   4     where the observer may place next: attach points, or free start cells before its first move
//   5     cells forbidden to the observer
// and pieces left, (4, 22), in the same relative colour order.
constexpr int kPlaneChannels = 6;

void write_planes(const Position& pos, int colour, std::int8_t* planes, std::int8_t* pieces);

enum class Policy : int {
    Random = 0,   // uniform over legal moves (same stream as RandomPlayout::step)
    Greedy = 1,   // a largest legal piece, uniform among those
    Search = 2,   // the MCTS at strength `level` 1..9 (one thread per game, no tree reuse)
};

// Where play_games writes its results; the caller owns the buffers (row-major).
struct BatchOutput {
    std::int16_t* moves = nullptr;     // games x max_moves placement ids, -1 padded
    std::int8_t* colours = nullptr;    // games x max_moves colour of each move, -1 padded
    std::int16_t* lengths = nullptr;   // games
    std::int16_t* scores = nullptr;    // games x 4 rulebook scores (0 for colours not in play)
    std::int8_t* planes = nullptr;     // optional: games x max_moves x 6 x cells, before each move
    std::int8_t* pieces = nullptr;     // optional with planes: games x max_moves x 4 x 22
    std::int8_t* finished = nullptr;   // optional: games, 1 once game i has been played to its end
};

struct BatchConfig {
    Policy policy = Policy::Random;
    int level = 1;                // search strength 1..9 (Policy::Search only)
    // Side (player or team) of each colour, as the search's Params (Policy::Search only).
    std::array<std::int8_t, kNumColours> side_of_colour{0, 1, 2, 3};
    long games = 0;
    std::uint64_t seed = 0;       // game i uses Rng(seed + i), whatever the thread count
    int threads = 1;
};

// Upper bound of moves in a game from `start`: every piece of every colour in play.
int max_moves(const Position& start);

// Per-thread scratch of play_games: a playout, a move buffer, a searcher (made on first use).
struct GameWorker;

// Plays game `i` (seed cfg.seed + i) from the worker's start position, writing row i of `out`.
// Once `stop` is set it ends soon, the game unfinished (a search under way stops too).
void play_game(GameWorker& worker, const BatchConfig& cfg, long i, const BatchOutput& out, int max_moves,
               const std::atomic<bool>* stop = nullptr);

// Plays cfg.games games on cfg.threads threads. The calling thread coordinates and calls
// `keep_going()` about every 20 ms; when it returns false the workers stop soon (a game under
// way is left unfinished, a search under way stops) and play_games returns false. Exceptions in
// workers are rethrown here.
bool play_games(const Position& start, const BatchConfig& cfg, const BatchOutput& out,
                const std::function<bool()>& keep_going);

// Per-step state of the learning environment: the playout's move sets give legal moves of any
// colour without generating from scratch.
class EnvState {
public:
    explicit EnvState(const Position& start) : playout_(start), buffer_(kMaxPlacements) {}

    void reset() { playout_.reset(); }
    void reset(const Position& start) { playout_.reset(start); }
    const Position& position() const { return playout_.position(); }

    // Plays `id` for the colour to move; returns the reason when it is not legal (nothing played).
    Illegal play(int id);
    // Legal ids of colour c into the internal buffer; returns the count.
    int legal_moves(int c);
    const std::uint16_t* buffer() const { return buffer_.data(); }
    // 0/1 mask over all placements (num_placements bytes) of colour c's legal moves; the ids are
    // left in buffer(). Returns their count.
    int write_mask(int c, std::int8_t* mask);

private:
    RandomPlayout playout_;
    std::vector<std::uint16_t> buffer_;
    std::unique_ptr<MoveList> scratch_;  // (a colour's first moves, generated from the position)
};

}  // namespace trigon
