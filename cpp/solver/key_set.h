// Sets of hash keys met before, for the exhaustive search's table of residual problems
// (exact_search.h): fixed memory, no deletion, never a wrong answer when full.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trigon::solver::exact_detail {

// A 128-bit key: two independent 64-bit hashes.
struct Key128 {
    std::uint64_t a = 0, b = 0;
    bool operator==(const Key128&) const = default;
};

// A key's first word: it places the key in the table, and 0 there marks an empty slot.
inline std::uint64_t& lead_word(std::uint64_t& k) { return k; }
inline std::uint64_t& lead_word(Key128& k) { return k.a; }

// Keys met already (std::uint64_t or Key128): open addressing, no deletion; it doubles when
// half full until it holds `capacity` keys, then only answers (a full table prunes less, never
// wrongly).
template <class K>
class KeySet {
public:
    explicit KeySet(std::size_t capacity) : capacity_(capacity) {}

    // True when k was not there (and now is, while there is room).
    bool insert(K k) {
        lead_word(k) |= lead_word(k) == 0;  // (0 marks an empty slot)
        if (slots_.empty()) slots_.assign(std::size_t{1} << 12, K{});
        if (2 * (used_ + 1) > slots_.size() && used_ < capacity_) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(lead_word(k)) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == k) return false;
            if (lead_word(slots_[i]) == 0) {
                if (used_ >= capacity_ || 2 * (used_ + 1) > slots_.size()) return true;  // full: not kept
                slots_[i] = k;
                ++used_;
                return true;
            }
        }
    }

private:
    void grow() {
        std::vector<K> old(slots_.size() * 2);
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (K& k : old)
            if (lead_word(k)) {
                std::size_t i = static_cast<std::size_t>(lead_word(k)) & mask;
                while (lead_word(slots_[i])) i = (i + 1) & mask;
                slots_[i] = k;
            }
    }

    std::size_t capacity_, used_ = 0;
    std::vector<K> slots_;
};

}  // namespace trigon::solver::exact_detail
