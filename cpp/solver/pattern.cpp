#include "solver/pattern.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "core/thread_group.h"
#include "solver/pattern_frontier.h"
#include "solver/pattern_local.h"
#include "solver/pattern_mrv.h"

namespace trigon::solver {

using namespace pattern_detail;

namespace {

// Subtrees handed out to threads: those four pieces deep (enough of them to balance the load,
// measured against two and three), or one piece short of the full cover on small puzzles.
constexpr int kSplitDepth = 4;

// Smaller puzzles are counted in microseconds: finding their symmetries would cost more.
constexpr int kSymmetryMinArea = 30;
// Counting: nodes searched without symmetries before finding and using them (about 1.5 ms).
constexpr long long kProbeNodes = 4096;

// Cell maps of the lattice symmetries (rotation/reflection then translation) that map the
// region onto itself; the identity first.
std::vector<std::vector<int>> region_symmetries(const Geometry& geo, const std::vector<int>& cells) {
    std::vector<LatticeCell> reg;
    for (int c : cells) reg.push_back(geo.lattice(c));
    std::vector<LatticeCell> sorted_reg = reg;
    std::sort(sorted_reg.begin(), sorted_reg.end());
    std::vector<std::vector<int>> out;
    for (int k = 0; k < kNumSymmetries; ++k) {
        std::vector<LatticeCell> img;
        for (const auto& L : reg) img.push_back(transform_cell(L, k));
        LatticeCell lo = *std::min_element(img.begin(), img.end());
        if (lo.t != sorted_reg[0].t) continue;
        const int da = sorted_reg[0].a - lo.a, db = sorted_reg[0].b - lo.b;
        std::vector<int> map(geo.num_cells(), -1);
        std::vector<LatticeCell> moved;
        bool ok = true;
        for (std::size_t i = 0; i < img.size() && ok; ++i) {
            LatticeCell m{img[i].a + da, img[i].b + db, img[i].t};
            int to = geo.cell_of(m);
            if (to < 0) ok = false;
            map[cells[i]] = to;
            moved.push_back(m);
        }
        if (!ok) continue;
        std::sort(moved.begin(), moved.end());
        if (moved != sorted_reg) continue;
        bool identity = true;
        for (int c : cells) identity = identity && map[c] == c;
        if (identity)
            out.insert(out.begin(), map);
        else
            out.push_back(map);
    }
    return out;
}

template <int W>
void search_one(const FrontierTables<W>& tab, const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o,
                PatternMethod method, const std::atomic<bool>* stop, PatternResult& res,
                const std::vector<std::vector<int>>& syms, const RootOrbits& root, SplitShare* share,
                const PatternPoll* poll) {
    if (method == PatternMethod::Mrv) {
        MrvSearch<W> s(t, lp, o, stop, res, syms, root, share, poll);
        s.run();
    } else {
        FrontierSearch<W> s(tab, t, lp, o, stop, res, syms, root, share, poll);
        s.run();
    }
}

template <int W>
void search(const FrontierTables<W>& tab, const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o,
            PatternMethod method, const std::atomic<bool>* stop, PatternResult& res,
            const std::vector<std::vector<int>>& syms, const std::vector<std::vector<int>>& sym_maps,
            const PatternPoll& poll) {
    const RootOrbits root = root_orbits(t, lp, sym_maps);
    int copies = 0;
    for (int c : lp.copies) copies += c;
    const int threads = std::min(o.threads, 64);
    if (!o.counting_only() || threads <= 1 || copies < 3) {
        search_one<W>(tab, t, lp, o, method, stop, res, syms, root, nullptr, &poll);
        return;
    }
    // A poll that says stop stops every thread (the others watch `halt`).
    SplitShare share;
    share.depth = std::min(kSplitDepth, copies - 1);
    std::atomic<bool> halt{false};
    const PatternPoll caller_poll = [&] {
        if ((poll && !poll()) || (stop && stop->load())) halt = true;
        return !halt;
    };
    std::vector<PatternResult> part(threads);
    // (a thread's exception, its memo's memory, halts the others and is rethrown once all are joined)
    ThreadGroup group([&] { halt = true; });
    for (int i = 1; i < threads; ++i)
        group.start([&, i] { search_one<W>(tab, t, lp, o, method, &halt, part[i], syms, root, &share, nullptr); });
    group.run_here([&] { search_one<W>(tab, t, lp, o, method, &halt, part[0], syms, root, &share, &caller_poll); });
    group.wait(std::chrono::milliseconds(5), caller_poll);  // the caller keeps polling until the last subtree is done
    group.join();
    res.exhausted = true;
    for (const auto& r : part) {
        res.count = pattern_detail::count_add(res.count, r.count);
        res.nodes += r.nodes;
        res.exhausted = res.exhausted && r.exhausted;
        res.node_limited = res.node_limited || r.node_limited;
    }
}

// Class counts that keep solutions list them first, within this share of the time limit.
constexpr double kListingShare = 0.5;

// Perimeter (cell edges on the region's boundary) per cell below this: a compact region, where
// the frontier search wins; ragged ones have bottlenecks that the MRV rule finds first.
constexpr double kCompactPerimeter = 0.6;

PatternMethod choose_method(const Geometry& geo, const std::vector<int>& cells, const Bitboard& region) {
    int perimeter = 0;
    for (int c : cells) {
        perimeter += 3 - static_cast<int>(geo.edge_neighbours(c).size());
        for (int nb : geo.edge_neighbours(c)) perimeter += !region.test(nb);
    }
    return perimeter < kCompactPerimeter * static_cast<double>(cells.size()) ? PatternMethod::Frontier
                                                                             : PatternMethod::Mrv;
}

}  // namespace


struct PreparedPattern::Impl {
    int side = 9;
    std::vector<int> cells;
    Bitboard region;
    std::string impossible;         // found while preparing; nothing to search then
    LocalPuzzle lp;
    PatternMethod auto_method = PatternMethod::Frontier;  // what Auto runs
    std::variant<std::monostate, FrontierTables<1>, FrontierTables<2>, FrontierTables<4>, FrontierTables<8>> tables;
    double seconds = 0;             // spent preparing
};

PreparedPattern::PreparedPattern(int side, const std::vector<int>& cells, const std::array<int, kNumPieces>& piece_counts) {
    const auto t0 = Clock::now();
    if (side != 8 && side != 9) throw std::invalid_argument("board side must be 9 or 8");
    const MoveTable& t = MoveTable::get(side);
    const Geometry& geo = t.geo();
    auto impl = std::make_shared<Impl>();
    Impl& P = *impl;
    P.side = side;
    P.cells = cells;
    Bitboard& region = P.region;
    for (int c : cells) {
        if (c < 0 || c >= geo.num_cells()) throw std::invalid_argument("region cell out of range");
        if (region.test(c)) throw std::invalid_argument("region cell given twice");
        region.set(c);
    }
    int piece_area = 0, smallest = 0;
    for (int p = 0; p < kNumPieces; ++p) {
        if (piece_counts[p] < 0) throw std::invalid_argument("negative piece count");
        // More copies than the board has cells never fit (and would overflow the area below).
        if (piece_counts[p] > geo.num_cells()) throw std::invalid_argument("more copies of a piece than the board has cells");
        piece_area += piece_counts[p] * trigon_pieces()[p].size;
        if (piece_counts[p] > 0) smallest = trigon_pieces()[p].size;
    }
    impl_ = impl;
    auto done = [&] { P.seconds = std::chrono::duration<double>(Clock::now() - t0).count(); };
    const int area = static_cast<int>(cells.size());
    if (area != piece_area) {
        P.impossible = "area mismatch: the region has " + std::to_string(area) + " cells, the pieces " +
                       std::to_string(piece_area);
        done();
        return;
    }
    // Edge-connected parts of the region: each must be at least as large as the smallest piece,
    // and its area a sum of some of the pieces' sizes.
    {
        Bitboard rem = region;
        std::vector<int> stack;
        std::vector<char> reachable(piece_area + 1, 0);
        reachable[0] = 1;
        for (int p = 0; p < kNumPieces; ++p)
            for (int k = 0; k < piece_counts[p]; ++k)
                for (int a = piece_area; a >= trigon_pieces()[p].size; --a)
                    if (reachable[a - trigon_pieces()[p].size]) reachable[a] = 1;
        for (int c : cells) {
            if (!rem.test(c)) continue;
            int size = 0;
            stack.assign(1, c);
            rem.reset(c);
            while (!stack.empty()) {
                int x = stack.back();
                stack.pop_back();
                ++size;
                for (int nb : geo.edge_neighbours(x))
                    if (rem.test(nb)) {
                        rem.reset(nb);
                        stack.push_back(nb);
                    }
            }
            if (size < smallest || !reachable[size]) {
                P.impossible = "a separate part of " + std::to_string(size) + " cells (around " + geo.cell_name(c) +
                               ") cannot be made of the pieces";
                done();
                return;
            }
        }
    }
    if (area == 0) {
        done();
        return;
    }
    // Local numbering: the placements inside found from their lowest cell, along the sweep.
    std::vector<int> board_order;
    board_order.reserve(cells.size());
    region.for_each([&](int c) { board_order.push_back(c); });
    std::vector<int> piece_of, copies;
    for (int p = 0; p < kNumPieces; ++p)
        if (piece_counts[p] > 0) {
            piece_of.push_back(p);
            copies.push_back(piece_counts[p]);
        }
    LocalPuzzle& lp = P.lp;
    if (const int gap = make_local_puzzle(t, board_order, std::move(piece_of), std::move(copies), lp); gap >= 0) {
        P.impossible = "no piece fits on cell " + geo.cell_name(gap);
        lp = LocalPuzzle{};
        done();
        return;
    }
    P.auto_method = choose_method(geo, cells, region);
    const int words = (area + 63) / 64;
    if (words <= 1)
        P.tables.emplace<FrontierTables<1>>(geo, lp);
    else if (words <= 2)
        P.tables.emplace<FrontierTables<2>>(geo, lp);
    else if (words <= 4)
        P.tables.emplace<FrontierTables<4>>(geo, lp);
    else
        P.tables.emplace<FrontierTables<8>>(geo, lp);
    done();
}

PreparedPattern::~PreparedPattern() = default;

int PreparedPattern::side() const { return impl_->side; }
const std::vector<int>& PreparedPattern::cells() const { return impl_->cells; }
const std::string& PreparedPattern::impossible() const { return impl_->impossible; }
int PreparedPattern::num_placements() const { return static_cast<int>(impl_->lp.ids.size()); }
double PreparedPattern::prepare_seconds() const { return impl_->seconds; }

PatternResult PreparedPattern::solve(const PatternOptions& options, const std::atomic<bool>* stop,
                                     const PatternPoll& poll) const {
    const auto t0 = Clock::now();
    const Impl& P = *impl_;
    const MoveTable& t = MoveTable::get(P.side);
    const Geometry& geo = t.geo();
    PatternResult res;
    auto finish = [&] {
        res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return res;
    };
    if (!P.impossible.empty()) {
        res.exhausted = true;
        res.impossible = P.impossible;
        return finish();
    }
    if (P.cells.empty()) {
        res.count = 1;  // the empty cover, kept only if solutions are kept at all
        if (options.max_stored > 0) res.solutions.push_back({});
        res.exhausted = true;
        return finish();
    }
    if (options.unique && options.all_solutions && !options.stop_when_stored)
        return count_classes(options, stop, poll, t0);
    const LocalPuzzle& lp = P.lp;
    // Puzzles this small are counted in microseconds, less than starting a thread costs.
    PatternOptions opt = options;
    if (static_cast<int>(P.cells.size()) < kSymmetryMinArea) opt.threads = 1;
    const auto syms = options.unique ? region_symmetries(geo, P.cells) : std::vector<std::vector<int>>{};
    res.symmetries = options.unique ? static_cast<int>(syms.size()) : 1;
    const PatternMethod method = options.method == PatternMethod::Auto ? P.auto_method : options.method;
    res.method = method;
    auto run = [&](const PatternOptions& o, const std::vector<std::vector<int>>& maps, PatternResult& out) {
        std::visit(
            [&](const auto& tab) {
                if constexpr (!std::is_same_v<std::decay_t<decltype(tab)>, std::monostate>)
                    search(tab, t, lp, o, method, stop, out, syms, maps, poll);
            },
            P.tables);
    };
    // Pure counting: the region's symmetries divide the work, but finding them costs more than
    // a small count, so a short probe without them goes first (its nodes are counted).
    if (opt.counting_only() && static_cast<int>(P.cells.size()) >= kSymmetryMinArea) {
        PatternOptions probe = opt;
        probe.threads = 1;
        probe.node_limit = opt.node_limit > 0 ? std::min(opt.node_limit, kProbeNodes) : kProbeNodes;
        PatternResult first = res;
        run(probe, {}, first);
        if (!first.node_limited || probe.node_limit == opt.node_limit) {
            res = first;
            return finish();
        }
        const long long probe_nodes = first.nodes;
        if (opt.progress) opt.progress->count.store(0, std::memory_order_relaxed);  // (counted again below)
        run(opt, region_symmetries(geo, P.cells), res);
        res.nodes += probe_nodes;
        return finish();
    }
    run(opt, {}, res);
    return finish();
}

PatternResult PreparedPattern::count_classes(const PatternOptions& options, const std::atomic<bool>* stop,
                                             const PatternPoll& poll, Clock::time_point t0) const {
    // Classes by Burnside's lemma: the covers each symmetry of the region fixes, summed, over
    // the number of symmetries. The identity fixes every cover (the plain count, which shares
    // equal subproblems); the others fix few, found by covering with whole orbits. Enumerating
    // every cover to keep one per class instead cost up to a hundred times more.
    const Impl& P = *impl_;
    const MoveTable& t = MoveTable::get(P.side);
    const auto syms = region_symmetries(t.geo(), P.cells);
    const long long n = static_cast<long long>(syms.size());
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    const auto time_left = [&] { return options.time_limit > 0 ? std::max(1e-3, options.time_limit - elapsed()) : 0.0; };
    // Classes that `covers` covers make at least: each class holds at most n of them.
    const auto at_least = [n](long long covers) { return covers / n + (covers % n != 0); };
    // The caller watches classes, not covers: the searches report here, and the poll passes on
    // the nodes and the classes known (kept while listing; after, at least the covers over n).
    PatternProgress mine;
    PatternProgress* theirs = options.progress;
    long long listed_classes = 0;
    bool counting_covers = false;
    const auto publish = [&] {
        if (!theirs) return;
        theirs->nodes.store(mine.nodes.load(std::memory_order_relaxed), std::memory_order_relaxed);
        const long long seen = mine.count.load(std::memory_order_relaxed);
        const long long classes = counting_covers ? at_least(seen) : seen;
        theirs->count.store(std::max(listed_classes, classes), std::memory_order_relaxed);
    };
    bool caller_stopped = false;  // (its poll said stop: no later search may ask it again)
    const PatternPoll forward = [&] {
        publish();
        caller_stopped = caller_stopped || (poll && !poll());
        return !caller_stopped;
    };
    PatternResult res;
    // First one cover of each class, as many as asked, within a share of the time: it stops once
    // it has them, and a listing that runs through the whole search has counted every class.
    if (options.max_stored > 0) {
        PatternOptions keep = options;
        keep.threads = 1;
        keep.stop_when_stored = true;
        keep.time_limit = options.time_limit > 0 ? options.time_limit * kListingShare : 0.0;
        keep.progress = theirs ? &mine : nullptr;
        res = solve(keep, stop, forward);
        res.symmetries = static_cast<int>(n);
        listed_classes = res.count;
        const bool all_listed = res.exhausted && static_cast<long long>(res.solutions.size()) < keep.max_stored;
        if (all_listed || caller_stopped || (stop && stop->load())) {
            res.exhausted = all_listed;
            res.seconds = elapsed();
            publish();
            return res;
        }
        mine.count.store(0, std::memory_order_relaxed);
    }
    PatternOptions plain = options;
    plain.unique = false;
    plain.max_stored = 0;
    plain.time_limit = time_left();
    plain.progress = theirs ? &mine : nullptr;
    counting_covers = true;
    PatternResult identity = solve(plain, stop, forward);  // (every cover)
    res.nodes += identity.nodes;
    res.method = identity.method;
    long long fixed = identity.count;
    bool exhausted = identity.exhausted && fixed < kCountCap;  // (past the cap the sum means nothing)
    PatternOptions one = plain;
    one.threads = 1;
    const std::vector<std::vector<int>> no_maps;  // (the searches keep references to these)
    const RootOrbits no_root;
    // A symmetry fixes the covers its powers fix: g and its inverse, say, fix the same ones.
    std::vector<std::pair<std::vector<std::size_t>, long long>> by_group;  // (powers of g, covers fixed)
    for (std::size_t k = 1; k < syms.size() && exhausted; ++k) {
        std::vector<std::size_t> group;  // the symmetries that are powers of syms[k]
        std::vector<int> power = syms[k];
        for (int step = 0; step < kNumSymmetries; ++step) {
            const auto at = std::find(syms.begin(), syms.end(), power);
            if (at == syms.begin() || at == syms.end()) break;
            group.push_back(static_cast<std::size_t>(at - syms.begin()));
            for (int c : P.cells) power[c] = syms[k][power[c]];
        }
        std::sort(group.begin(), group.end());
        const auto known = std::find_if(by_group.begin(), by_group.end(), [&](const auto& e) { return e.first == group; });
        if (known != by_group.end()) {
            fixed = count_add(fixed, known->second);
            continue;
        }
        const auto orbits = placement_orbits(t, P.lp, syms[k]);
        one.time_limit = time_left();
        PatternResult part;
        std::visit(
            [&](const auto& tab) {
                using Tables = std::decay_t<decltype(tab)>;
                if constexpr (!std::is_same_v<Tables, std::monostate>) {
                    MrvSearch<Tables::kWords> s(t, P.lp, one, stop, part, no_maps, no_root, nullptr, &forward, &orbits);
                    s.run();
                }
            },
            P.tables);
        res.nodes += part.nodes;
        res.node_limited = res.node_limited || part.node_limited;
        fixed = count_add(fixed, part.count);
        exhausted = part.exhausted && fixed < kCountCap;
        by_group.emplace_back(std::move(group), part.count);
    }
    res.node_limited = res.node_limited || identity.node_limited;
    if (exhausted && fixed % n != 0)
        throw std::logic_error("pattern classes: the covers fixed by the symmetries do not add up");
    // Stopped early (or past the cap): each class holds at most n covers, so the covers counted
    // over n are a lower bound, as are the classes listed.
    res.count = exhausted ? fixed / n : std::max(listed_classes, at_least(identity.count));
    res.exhausted = exhausted;
    res.symmetries = static_cast<int>(n);
    res.seconds = elapsed();
    counting_covers = false;
    mine.count.store(res.count, std::memory_order_relaxed);
    publish();  // (the final figures, for a caller that reads them after)
    return res;
}

PatternResult solve_pattern(int side, const std::vector<int>& cells, const std::array<int, kNumPieces>& piece_counts,
                            const PatternOptions& options, const std::atomic<bool>* stop, const PatternPoll& poll) {
    const PreparedPattern puzzle(side, cells, piece_counts);
    PatternResult r = puzzle.solve(options, stop, poll);
    r.seconds += puzzle.prepare_seconds();
    return r;
}

}  // namespace trigon::solver
