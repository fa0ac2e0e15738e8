#include "playout.h"

namespace trigon {

RandomPlayout::RandomPlayout(const Position& start) : pos_(start), start_pos_(start) { reset(start); }

void RandomPlayout::reset(const Position& start) {
    pos_ = start;
    build_sets();
    start_pos_ = start;
    start_unblocked_ = unblocked_;
    start_reach_ = reach_;
}

void RandomPlayout::reset() {
    pos_ = start_pos_;
    unblocked_ = start_unblocked_;
    reach_ = start_reach_;
}

void RandomPlayout::build_sets() {
    const MoveTable& t = pos_.table();
    for (int c = 0; c < kNumColours; ++c) {
        unblocked_[c] = MoveSet{};
        reach_[c] = MoveSet{};
        if (!pos_.in_play(c) || pos_.is_out(c)) continue;
        if (!pos_.started(c) && pos_.forbidden(c).none()) {
            unblocked_[c] = t.all_placements();  // the empty board: nothing blocked
        } else {
            for (int id = 0; id < t.num_placements(); ++id)
                if (pos_.still_legal(c, id)) unblocked_[c].set(id);
        }
        if (pos_.started(c)) pos_.attach_cells(c).for_each([&](int q) { t.add(reach_[c], t.covers(q)); });
        else refresh_start_reach(c);
    }
}

void RandomPlayout::refresh_start_reach(int c) {
    const MoveTable& t = pos_.table();
    reach_[c] = MoveSet{};
    pos_.start_cells(c).for_each([&](int s) { t.add(reach_[c], t.covers(s)); });
}

TRIGON_CLONES int RandomPlayout::legal_moves(int c, std::uint16_t* out) const {
    int n = 0;
    for (int k = 0; k < MoveSet::kWords; ++k) {
        std::uint64_t b = unblocked_[c].w[k] & reach_[c].w[k];
        while (b) {
            out[n++] = static_cast<std::uint16_t>(k * 64 + std::countr_zero(b));
            b &= b - 1;
        }
    }
    return n;
}

TRIGON_CLONES int RandomPlayout::count_moves(int c) const {
    int n = 0;
    for (int k = 0; k < MoveSet::kWords; ++k) n += std::popcount(unblocked_[c].w[k] & reach_[c].w[k]);
    return n;
}

TRIGON_CLONES bool RandomPlayout::has_moves(int c) const {
    std::uint64_t acc = 0;
    for (int k = 0; k < MoveSet::kWords; k += 8) {
        for (int j = 0; j < 8; ++j) acc |= unblocked_[c].w[k + j] & reach_[c].w[k + j];
        if (acc) return true;
    }
    return false;
}

TRIGON_CLONES int RandomPlayout::random_move(Rng& rng) const {
    if (pos_.is_over()) return kPass;
    const int c = pos_.to_move();
    // One pass for the per-word counts, then select the k-th legal move.
    std::uint8_t counts[MoveSet::kWords];
    int total = 0;
    for (int w = 0; w < MoveSet::kWords; ++w) {
        counts[w] = static_cast<std::uint8_t>(std::popcount(unblocked_[c].w[w] & reach_[c].w[w]));
        total += counts[w];
    }
    if (total == 0) return kPass;
    int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
    int w = 0;
    while (k >= counts[w]) k -= counts[w++];
    std::uint64_t b = unblocked_[c].w[w] & reach_[c].w[w];
    for (; k > 0; --k) b &= b - 1;  // drop the k lowest bits
    return w * 64 + std::countr_zero(b);
}

TRIGON_CLONES void RandomPlayout::play(int id) {
    const MoveTable& t = pos_.table();
    const int c = pos_.to_move();
    std::array<Bitboard, kNumColours> forb_before;
    for (int k = 0; k < kNumColours; ++k) forb_before[k] = pos_.forbidden(k);
    const Bitboard attach_before = pos_.attach_cells(c);
    const VertexSet touched_before = pos_.touched_vertices(c);
    const bool first = !pos_.started(c);
    pos_.place(c, id);
    // Newly forbidden cells block every placement covering them, for every colour concerned.
    for (int k = 0; k < kNumColours; ++k) {
        if (pos_.is_out(k)) continue;
        (pos_.forbidden(k) - forb_before[k]).for_each([&](int cell) { t.remove(unblocked_[k], t.covers(cell)); });
    }
    unblocked_[c] -= t.piece_set(t.placement(id).piece);
    if (pos_.rules().alternate)
        (pos_.touched_vertices(c) - touched_before).for_each([&](int v) { t.remove(unblocked_[c], t.side_covers(v)); });
    if (first) reach_[c] = MoveSet{};
    (pos_.attach_cells(c) - attach_before).for_each([&](int q) { t.add(reach_[c], t.covers(q)); });
    pass_turn(c + 1);
}

void RandomPlayout::pass_turn(int from) {
    for (int i = 0; i < kNumColours; ++i) {
        int k = (from + i) % kNumColours;
        if (pos_.is_out(k)) continue;
        // Start cells can be taken or reserved by others' moves: recompute before a first move.
        if (!pos_.started(k)) refresh_start_reach(k);
        if (has_moves(k)) {
            pos_.force_turn(k);
            return;
        }
        pos_.mark_out(k);
    }
    pos_.force_turn(from % kNumColours);  // game over: the same convention as Position::play
}

int RandomPlayout::step(Rng& rng) {
    int id = random_move(rng);
    if (id != kPass) play(id);
    return id;
}

int RandomPlayout::run(Rng& rng) {
    int n = 0;
    while (step(rng) != kPass) ++n;
    return n;
}

}  // namespace trigon
