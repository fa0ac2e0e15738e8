// Fixed-size bit sets over board cells (and vertices): the hot data type of the engine.
#pragma once

#include <bit>
#include <cstdint>

// Hot loops get runtime-dispatched clones (POPCNT, AVX2) while the binary stays baseline x86-64.
// Not under TSan: gcc instruments the clones' ifunc resolvers, which the loader runs before the
// TSan runtime can serve them (a segfault at start-up or at import).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define TRIGON_CLONES __attribute__((target_clones("avx2", "popcnt", "default")))
#else
#define TRIGON_CLONES
#endif

namespace trigon {

// A set of up to 64 * N indices, packed in N 64-bit words.
template <int N>
struct BitSet {
    std::uint64_t w[N] = {};

    static constexpr int kWords = N;
    static constexpr int kBits = 64 * N;

    // Tests, sets and clears one index.
    bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1u; }
    void set(int i) { w[i >> 6] |= std::uint64_t{1} << (i & 63); }
    void reset(int i) { w[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }

    // True when at least one index is set.
    bool any() const {
        std::uint64_t acc = 0;
        for (int k = 0; k < N; ++k) acc |= w[k];
        return acc != 0;
    }
    bool none() const { return !any(); }

    // The lowest index set, -1 when none is.
    int first() const {
        for (int k = 0; k < N; ++k)
            if (w[k]) return k * 64 + std::countr_zero(w[k]);
        return -1;
    }

    // The r-th lowest index set (from 0), -1 when fewer than r + 1 are: picks a random member.
    int nth(int r) const {
        for (int k = 0; k < N; ++k) {
            std::uint64_t word = w[k];
            const int n = std::popcount(word);
            if (r < n) {
                for (; r > 0; --r) word &= word - 1;
                return k * 64 + std::countr_zero(word);
            }
            r -= n;
        }
        return -1;
    }

    // Number of indices set.
    int count() const {
        int c = 0;
        for (int k = 0; k < N; ++k) c += std::popcount(w[k]);
        return c;
    }

    // True when the two sets share an index.
    bool intersects(const BitSet& o) const {
        std::uint64_t acc = 0;
        for (int k = 0; k < N; ++k) acc |= w[k] & o.w[k];
        return acc != 0;
    }

    BitSet& operator|=(const BitSet& o) { for (int k = 0; k < N; ++k) w[k] |= o.w[k]; return *this; }
    BitSet& operator&=(const BitSet& o) { for (int k = 0; k < N; ++k) w[k] &= o.w[k]; return *this; }
    BitSet& operator^=(const BitSet& o) { for (int k = 0; k < N; ++k) w[k] ^= o.w[k]; return *this; }
    // Removes the indices of o (and-not).
    BitSet& operator-=(const BitSet& o) { for (int k = 0; k < N; ++k) w[k] &= ~o.w[k]; return *this; }

    friend BitSet operator|(BitSet a, const BitSet& b) { return a |= b; }
    friend BitSet operator&(BitSet a, const BitSet& b) { return a &= b; }
    friend BitSet operator^(BitSet a, const BitSet& b) { return a ^= b; }
    friend BitSet operator-(BitSet a, const BitSet& b) { return a -= b; }
    friend bool operator==(const BitSet& a, const BitSet& b) {
        for (int k = 0; k < N; ++k) if (a.w[k] != b.w[k]) return false;
        return true;
    }

    // Calls f(index) for every index set, in increasing order.
    template <class F>
    void for_each(F&& f) const {
        for (int k = 0; k < N; ++k) {
            std::uint64_t b = w[k];
            while (b) {
                f(k * 64 + std::countr_zero(b));
                b &= b - 1;
            }
        }
    }
};

// 486 cells of the large board fit in 8 words; the small board uses a prefix.
using Bitboard = BitSet<8>;
// 271 lattice vertices of the large board fit in 5 words.
using VertexSet = BitSet<5>;

}  // namespace trigon
