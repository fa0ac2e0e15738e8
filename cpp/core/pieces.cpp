#include "pieces.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace trigon {

namespace {

using Shape = std::vector<LatticeCell>;

// Translate so the least a and least b are 0, then sort: a translation-free form.
Shape normalised(Shape s) {
    int ma = s[0].a, mb = s[0].b;
    for (auto& c : s) {
        ma = std::min(ma, c.a);
        mb = std::min(mb, c.b);
    }
    for (auto& c : s) {
        c.a -= ma;
        c.b -= mb;
    }
    std::sort(s.begin(), s.end());
    return s;
}

Shape transformed(const Shape& s, int k) {
    Shape out;
    out.reserve(s.size());
    for (auto& c : s) out.push_back(transform_cell(c, k));
    return normalised(out);
}

Shape canonical(const Shape& s) {
    Shape best = transformed(s, 0);
    for (int k = 1; k < kNumSymmetries; ++k) best = std::min(best, transformed(s, k));
    return best;
}

std::string key_of(const Shape& s) {
    std::string k;
    for (auto& c : s) k += std::to_string(c.a) + "," + std::to_string(c.b) + "," + std::to_string(c.t) + ";";
    return k;
}

// Lattice edge neighbours of a triangle (the board's rule, without the board).
std::array<LatticeCell, 3> lattice_neighbours(const LatticeCell& c) {
    if (c.t == 0) return {{{c.a - 1, c.b, 1}, {c.a, c.b, 1}, {c.a, c.b - 1, 1}}};
    return {{{c.a, c.b, 0}, {c.a + 1, c.b, 0}, {c.a, c.b + 1, 0}}};
}

// Canonical keys of Pentobi's piece shapes, computed from its published coordinates by the
// same canonical_key: the names are Pentobi's, the shapes come from generate_free().
const std::map<std::string, std::string>& name_by_key() {
    static const std::map<std::string, std::string> m = {
        {"0,0,0;0,0,1;0,1,0;0,1,1;0,2,0;0,2,1;", "I6"},
        {"0,0,1;0,1,0;0,1,1;0,2,0;0,2,1;1,0,0;", "L6"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,1,0;1,1,1;", "V"},
        {"0,0,1;0,1,0;0,1,1;1,1,0;1,1,1;1,2,0;", "S"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;0,2,0;1,0,0;", "P6"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,0,0;1,1,0;", "F"},
        {"0,0,1;0,1,0;0,1,1;0,2,0;0,2,1;1,1,0;", "W"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,0,0;1,0,1;", "A6"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,0,1;1,1,0;", "G"},
        {"0,0,1;0,1,0;0,1,1;0,2,0;1,1,0;1,1,1;", "Y"},
        {"0,1,0;0,1,1;0,2,0;1,0,1;1,1,0;1,1,1;", "X"},
        {"0,0,1;0,1,0;0,1,1;1,0,0;1,0,1;1,1,0;", "O"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;0,2,0;", "I5"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,1,0;", "L5"},
        {"0,0,1;0,1,0;0,1,1;1,0,0;1,0,1;", "C5"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;1,0,0;", "P5"},
        {"0,0,0;0,0,1;0,1,0;0,1,1;", "I4"},
        {"0,0,1;0,1,0;0,1,1;1,0,0;", "C4"},
        {"0,0,0;0,0,1;0,1,0;1,0,0;", "A4"},
        {"0,0,0;0,0,1;0,1,0;", "I3"},
        {"0,0,0;0,0,1;", "2"},
        {"0,0,0;", "1"},
    };
    return m;
}

std::vector<Shape> generate_free(int max_size) {
    std::vector<Shape> all;
    std::set<Shape> level = {Shape{{0, 0, 0}}};
    for (int size = 1; size <= max_size; ++size) {
        for (auto& s : level) all.push_back(s);
        if (size == max_size) break;
        std::set<Shape> next;
        for (auto& s : level)
            for (auto& c : s)
                for (auto& nb : lattice_neighbours(c)) {
                    if (std::find(s.begin(), s.end(), nb) != s.end()) continue;
                    Shape g = s;
                    g.push_back(nb);
                    next.insert(canonical(g));
                }
        level = std::move(next);
    }
    return all;
}

}  // namespace

std::string canonical_key(const std::vector<LatticeCell>& cells) { return key_of(canonical(cells)); }

const std::vector<PieceShape>& trigon_pieces() {
    static const std::vector<PieceShape> pieces = [] {
        static const char* kOrder[] = {"I6", "L6", "V",  "S",  "P6", "F",  "W",  "A6", "G",  "Y", "X",
                                       "O",  "I5", "L5", "C5", "P5", "I4", "C4", "A4", "I3", "2", "1"};
        std::map<std::string, PieceShape> by_name;
        for (auto& s : generate_free(kMaxPieceSize)) {
            std::string key = key_of(s);
            auto it = name_by_key().find(key);
            if (it == name_by_key().end()) throw std::logic_error("unnamed polyiamond " + key);
            PieceShape p{it->second, static_cast<int>(s.size()), {}};
            std::set<Shape> forms;
            for (int k = 0; k < kNumSymmetries; ++k) forms.insert(transformed(s, k));
            p.orientations.assign(forms.begin(), forms.end());
            by_name.emplace(p.name, std::move(p));
        }
        std::vector<PieceShape> out;
        for (auto* n : kOrder) out.push_back(by_name.at(n));
        return out;
    }();
    return pieces;
}

}  // namespace trigon
