#include "playout.h"

#include <algorithm>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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

namespace {

constexpr int kBlockWords = 8;
constexpr int kBlocks = MoveSet::kWords / kBlockWords;

// Popcount of (a & b) per block of 8 words; returns the total.
int block_counts_scalar(const std::uint64_t* a, const std::uint64_t* b, std::uint16_t* blocks) {
    int total = 0;
    for (int k = 0; k < kBlocks; ++k) {
        int n = 0;
        for (int j = 0; j < kBlockWords; ++j) n += std::popcount(a[k * kBlockWords + j] & b[k * kBlockWords + j]);
        blocks[k] = static_cast<std::uint16_t>(n);
        total += n;
    }
    return total;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same with AVX2: nibble lookup popcount (Mula), summed per 64-bit lane by SAD.
__attribute__((target("avx2"))) int block_counts_avx2(const std::uint64_t* a, const std::uint64_t* b,
                                                      std::uint16_t* blocks) {
    const __m256i lookup = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    int total = 0;
    for (int k = 0; k < kBlocks; ++k) {
        __m256i acc = _mm256_setzero_si256();
        for (int j = 0; j < kBlockWords; j += 4) {
            const int w = k * kBlockWords + j;
            __m256i v = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + w)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + w)));
            __m256i c = _mm256_add_epi8(_mm256_shuffle_epi8(lookup, _mm256_and_si256(v, low)),
                                        _mm256_shuffle_epi8(lookup, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
            acc = _mm256_add_epi64(acc, _mm256_sad_epu8(c, _mm256_setzero_si256()));
        }
        __m128i s = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        int n = static_cast<int>(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
        blocks[k] = static_cast<std::uint16_t>(n);
        total += n;
    }
    return total;
}

const bool kHaveAvx2 = __builtin_cpu_supports("avx2");
#endif

int block_counts(const std::uint64_t* a, const std::uint64_t* b, std::uint16_t* blocks) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (kHaveAvx2) return block_counts_avx2(a, b, blocks);
#endif
    return block_counts_scalar(a, b, blocks);
}

}  // namespace

int RandomPlayout::random_move(Rng& rng) const {
    if (pos_.is_over()) return kPass;
    const int c = pos_.to_move();
    // Counts per block of 8 words, then select the k-th legal move: block, word, bit.
    std::uint16_t blocks[kBlocks];
    const std::uint64_t* u = unblocked_[c].w;
    const std::uint64_t* r = reach_[c].w;
    const int total = block_counts(u, r, blocks);
    if (total == 0) return kPass;
    int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
    int blk = 0;
    while (k >= blocks[blk]) k -= blocks[blk++];
    int w = blk * kBlockWords;
    for (;; ++w) {
        int cnt = std::popcount(u[w] & r[w]);
        if (k < cnt) break;
        k -= cnt;
    }
    std::uint64_t bits = u[w] & r[w];
    for (; k > 0; --k) bits &= bits - 1;  // drop the k lowest bits
    return w * 64 + std::countr_zero(bits);
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
    // The placements overlapping the new piece, gathered once (their words are contiguous), are
    // blocked for every colour; other newly forbidden cells (own edges, alternate rule,
    // reserved start cells) are removed one by one.
    const Placement& pl = t.placement(id);
    int lo = MoveSet::kWords, hi = 0;
    for (int i = 0; i < pl.size; ++i) {
        const SparseSet& cs = t.covers(pl.cells[i]);
        lo = std::min(lo, static_cast<int>(cs.first_word));
        hi = std::max(hi, cs.first_word + cs.num_words);
    }
    std::uint64_t overlap[MoveSet::kWords];
    for (int w = lo; w < hi; ++w) overlap[w] = 0;
    for (int i = 0; i < pl.size; ++i) t.add_words(overlap, t.covers(pl.cells[i]));
    const Bitboard& cells = t.cells_mask(id);
    for (int k = 0; k < kNumColours; ++k) {
        if (pos_.is_out(k)) continue;
        for (int w = lo; w < hi; ++w) unblocked_[k].w[w] &= ~overlap[w];
        (pos_.forbidden(k) - forb_before[k] - cells).for_each([&](int cell) { t.remove(unblocked_[k], t.covers(cell)); });
    }
    unblocked_[c] -= t.piece_set(t.placement(id).piece);
    if (pos_.rules().alternate)
        (pos_.touched_vertices(c) - touched_before).for_each([&](int v) { t.remove(unblocked_[c], t.side_covers(v)); });
    if (first) reach_[c] = MoveSet{};
    // A new attach cell that is already forbidden opens nothing: its placements are blocked.
    (pos_.attach_cells(c) - attach_before - pos_.forbidden(c)).for_each([&](int q) { t.add(reach_[c], t.covers(q)); });
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
