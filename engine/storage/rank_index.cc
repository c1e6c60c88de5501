#include "engine/storage/rank_index.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "indexes/key_codec.h"
#include "indexes/salt.h"

namespace levelql::ranks {
namespace {

const std::string kSentinel("\xff", 1);

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string LevelPrefix(const Space& space, int level) {
  std::string p = space.nodes;
  p.push_back(static_cast<char>(level));
  return p;
}

std::string Count(int64_t n) {
  std::string out;
  keys::EncodeValue(Value::Int(n), keys::Direction::kAsc, &out);
  return out;
}

Status ReadCount(std::string_view value, int64_t* n) {
  Value v;
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&value, keys::Direction::kAsc, &v));
  if (v.type() != Type::kInteger || !value.empty() || v.int_value() < 0) {
    return Status::Corruption("bad count in a ranked index node");
  }
  *n = v.int_value();
  return Status::OK();
}

// The smallest key after every key that starts with `s` is not needed: the
// smallest key after `s` itself is `s` + 00.
std::string After(std::string_view s) {
  std::string out(s);
  out.push_back('\0');
  return out;
}

}  // namespace

int LevelOf(std::string_view suffix) {
  uint64_t h = rows::StableKeyHash(suffix);
  int level = 0;
  while (level < kMaxLevel && (h & ((1u << kLevelBits) - 1)) == 0) {
    ++level;
    h >>= kLevelBits;
  }
  return level;
}

namespace {

// One level of Apply. Walks the changes in key order, keeping in memory the
// node c that covers the current change (the first node at or after it) and
// its count as changed so far; the nodes changed are written at the end.
// Invariant: c's count is exact for the changes already processed, so the
// level below (final) minus the changes not yet processed gives the count
// of any range (the bounds of a split are level-below nodes).
class LevelApply {
 public:
  LevelApply(const Space& space, int level,
             const std::vector<std::pair<std::string, int>>& changes,
             const std::vector<std::string_view>& suffixes,
             const std::vector<int>& heights, std::unique_ptr<KvIterator> nodes,
             std::unique_ptr<KvIterator> below)
      : level_(level),
        lp_(LevelPrefix(space, level)),
        below_prefix_(level == 1 ? space.entries
                                 : LevelPrefix(space, level - 1)),
        changes_(changes),
        suffixes_(suffixes),
        heights_(heights),
        nodes_(std::move(nodes)),
        below_(std::move(below)) {
    // pending_[i]: the deltas from change i on that the second pass
    // counts.
    pending_.assign(changes.size() + 1, 0);
    for (size_t i = changes.size(); i-- > 0;) {
      pending_[i] = pending_[i + 1] + (Removes(i) ? 0 : changes[i].second);
    }
  }

  Status Run(Sink* sink) {
    // First the nodes that go, then the rest: a split counts its upper
    // part on the final level below, whose nodes bound that part only when
    // the node above it stays.
    for (size_t i = 0; i < changes_.size(); ++i) {
      if (Removes(i)) {
        LQ_RETURN_IF_ERROR(Cover(suffixes_[i]));
        LQ_RETURN_IF_ERROR(Remove(suffixes_[i]));
      }
    }
    Flush();
    positioned_ = false;
    for (size_t i = 0; i < changes_.size(); ++i) {
      if (Removes(i)) continue;
      const std::string_view e = suffixes_[i];
      if (!have_c_ || c_ < e) LQ_RETURN_IF_ERROR(Cover(e));
      if (heights_[i] < level_) {
        c_count_ += changes_[i].second;
        if (c_count_ < 0) return Disagree();
      } else {
        LQ_RETURN_IF_ERROR(Split(i));
      }
    }
    Flush();
    for (auto& [suffix, count] : written_) {
      if (count) {
        sink->Put(lp_ + suffix, Count(*count));
      } else {
        sink->Delete(lp_ + suffix);
      }
    }
    return Status::OK();
  }

 private:
  // Change i takes its entry's node off this level.
  bool Removes(size_t i) const {
    return changes_[i].second < 0 && heights_[i] >= level_;
  }

  void Flush() {
    if (have_c_) written_[c_] = c_count_;
    have_c_ = false;
  }

  static Status Disagree() {
    return Status::Corruption("ranked index counts disagree with entries");
  }

  // Makes c the first stored node at or after `e` (the sentinel, count 0,
  // if none: an index whose nodes were never built).
  Status Cover(std::string_view e) {
    Flush();
    // Mostly the next node or one close by: step before seeking.
    int steps = 0;
    if (positioned_) {
      while (nodes_->Valid() && StartsWith(nodes_->key(), lp_) &&
             nodes_->key().substr(lp_.size()) < e && steps < 16) {
        nodes_->Next();
        ++steps;
      }
    }
    if (!positioned_ || steps == 16) {
      nodes_->Seek(lp_ + std::string(e));
      positioned_ = true;
    }
    return Load();
  }

  // c := the first node not removed from nodes_ on (or the sentinel), its
  // count the one already changed in this walk if it was.
  Status Load() {
    have_c_ = true;
    for (; nodes_->Valid() && StartsWith(nodes_->key(), lp_); nodes_->Next()) {
      c_.assign(nodes_->key().substr(lp_.size()));
      auto w = written_.find(c_);
      if (w == written_.end()) return ReadCount(nodes_->value(), &c_count_);
      if (w->second) {
        c_count_ = *w->second;
        return Status::OK();
      }
    }
    LQ_RETURN_IF_ERROR(nodes_->status());
    c_ = kSentinel;
    auto w = written_.find(c_);
    c_count_ = w != written_.end() && w->second ? *w->second : 0;
    return Status::OK();
  }

  // Change i adds its entry's node to this level.
  bool Splits(size_t i) const {
    return changes_[i].second > 0 && heights_[i] >= level_;
  }

  // The first change from j on that splits c's range; end() if none.
  size_t NextSplit(size_t j) const {
    while (j < suffixes_.size() && suffixes_[j] <= c_ && !Splits(j)) ++j;
    return j < suffixes_.size() && suffixes_[j] <= c_ ? j : suffixes_.size();
  }

  // Entry i becomes a node: it splits c's range (prev, c] into
  // (prev, e] and (e, c].
  Status Split(size_t i) {
    const std::string_view e = suffixes_[i];
    if (e == c_) return Status::Corruption("ranked index node for a new entry");
    int64_t after = 0;  // (e, c] in the final entries
    if (auto cached = upper_part_.find(i); cached != upper_part_.end()) {
      after = cached->second;
    } else {
      // One walk up to c serves every later split of the same range: a
      // batch appending at the end splits the sentinel's range many times.
      std::vector<std::pair<size_t, int64_t>> marks;  // split, units to it
      size_t j = NextSplit(i + 1);
      for (below_->Seek(After(below_prefix_ + std::string(e)));
           below_->Valid() && StartsWith(below_->key(), below_prefix_);
           below_->Next()) {
        std::string_view s = below_->key().substr(below_prefix_.size());
        if (s > c_) break;
        int64_t n = 1;
        if (level_ > 1) LQ_RETURN_IF_ERROR(ReadCount(below_->value(), &n));
        after += n;
        for (; j < suffixes_.size() && suffixes_[j] <= s;
             j = NextSplit(j + 1)) {
          if (suffixes_[j] == s) marks.emplace_back(j, after);
        }
      }
      LQ_RETURN_IF_ERROR(below_->status());
      for (auto [split, units] : marks) upper_part_[split] = after - units;
    }
    // ... less the changes in (e, c] this walk has not counted yet.
    const size_t end = std::upper_bound(suffixes_.begin() + i + 1,
                                        suffixes_.end(), std::string_view(c_)) -
                       suffixes_.begin();
    after -= pending_[i + 1] - pending_[end];
    if (after < 0 || after > c_count_ + 1) return Disagree();
    written_[std::string(e)] = c_count_ + 1 - after;
    c_count_ = after;
    return Status::OK();
  }

  // Entry e's node goes; the next node takes its range.
  Status Remove(std::string_view e) {
    if (c_ != e) return Status::Corruption("ranked index node missing");
    const int64_t moved = c_count_ - 1;
    if (moved < 0) return Disagree();
    written_[c_] = std::nullopt;
    have_c_ = false;
    if (nodes_->Valid()) nodes_->Next();
    LQ_RETURN_IF_ERROR(Load());
    c_count_ += moved;
    return Status::OK();
  }

  const int level_;
  const std::string lp_;
  const std::string below_prefix_;
  const std::vector<std::pair<std::string, int>>& changes_;
  const std::vector<std::string_view>& suffixes_;  // the keys without prefix
  const std::vector<int>& heights_;                // LevelOf each suffix
  std::vector<int64_t> pending_;
  std::unique_ptr<KvIterator> nodes_;  // the stored nodes of this level
  std::unique_ptr<KvIterator> below_;  // the final level below
  bool positioned_ = false;
  bool have_c_ = false;
  std::string c_;
  int64_t c_count_ = 0;
  // Splits whose upper part an earlier split's walk counted: final units
  // in (split, c].
  std::map<size_t, int64_t> upper_part_;
  // Nodes changed: their count, or nullopt for removed.
  std::map<std::string, std::optional<int64_t>, std::less<>> written_;
};

}  // namespace

Status Apply(const Space& space,
             const std::vector<std::pair<std::string, int>>& changes,
             const std::function<std::unique_ptr<KvIterator>()>& make_view,
             Sink* sink) {
  if (changes.empty()) return Status::OK();
  std::vector<std::string_view> suffixes;
  std::vector<int> heights;
  suffixes.reserve(changes.size());
  heights.reserve(changes.size());
  for (const auto& [key, delta] : changes) {
    suffixes.push_back(std::string_view(key).substr(space.entries.size()));
    heights.push_back(LevelOf(suffixes.back()));
  }
  for (int level = 1; level <= kMaxLevel; ++level) {
    LevelApply walk(space, level, changes, suffixes, heights, make_view(),
                    make_view());
    LQ_RETURN_IF_ERROR(walk.Run(sink));
  }
  return Status::OK();
}

namespace {

// A descent's target: the suffix every counted entry sorts below.
std::string Target(const Space& space, std::string_view key) {
  return StartsWith(key, space.entries)
             ? std::string(key.substr(space.entries.size()))
             : kSentinel;
}

// A descent: the last node passed (none: empty) and the entries counted.
struct Descent {
  std::string prev;
  int64_t acc = 0;
};

// One descent step at level prefix `lp`: from the node after d->prev (the
// level's start when empty), adds the counts of the nodes below `target`
// and leaves d->prev at the last of them. With `lo` (whose prev is d's,
// and whose target `lo_target` <= target), the same walk steps `lo` too:
// the nodes below lo_target count for both.
Status Walk(std::string_view lp, bool counted, const std::string& target,
            KvIterator* view, Descent* d,
            const std::string* lo_target = nullptr, Descent* lo = nullptr) {
  for (view->Seek(d->prev.empty() ? std::string(lp)
                                  : After(std::string(lp) + d->prev));
       view->Valid() && StartsWith(view->key(), lp); view->Next()) {
    std::string_view ns = view->key().substr(lp.size());
    if (ns >= target) break;
    int64_t n = 1;
    if (counted) LQ_RETURN_IF_ERROR(ReadCount(view->value(), &n));
    if (lo && ns < *lo_target) {
      lo->acc += n;
      lo->prev.assign(ns);
    }
    d->acc += n;
    d->prev.assign(ns);
  }
  return view->status();
}

std::string LevelStart(const Space& space, int level) {
  return level == 0 ? space.entries : LevelPrefix(space, level);
}

}  // namespace

Result<int64_t> Rank(const Space& space, std::string_view key,
                     KvIterator* view) {
  if (key <= space.entries) return int64_t{0};
  const std::string s = Target(space, key);
  Descent d;
  for (int level = kMaxLevel; level >= 0; --level) {
    LQ_RETURN_IF_ERROR(Walk(LevelStart(space, level), level > 0, s, view, &d));
  }
  return d.acc;
}

Result<int64_t> CountBetween(const Space& space, std::string_view lo,
                             std::string_view hi, KvIterator* view) {
  if (hi <= lo) return int64_t{0};
  if (lo <= space.entries) return Rank(space, hi, view);
  const std::string s_lo = Target(space, lo);
  const std::string s_hi = Target(space, hi);
  Descent d_lo, d_hi;
  for (int level = kMaxLevel; level >= 0; --level) {
    const std::string lp = LevelStart(space, level);
    if (d_lo.prev == d_hi.prev) {
      // Both descents passed the same node: one walk serves both.
      LQ_RETURN_IF_ERROR(Walk(lp, level > 0, s_hi, view, &d_hi, &s_lo, &d_lo));
    } else {
      LQ_RETURN_IF_ERROR(Walk(lp, level > 0, s_lo, view, &d_lo));
      LQ_RETURN_IF_ERROR(Walk(lp, level > 0, s_hi, view, &d_hi));
    }
  }
  return d_hi.acc - d_lo.acc;
}

Result<std::string> EntryAt(const Space& space, int64_t target,
                            KvIterator* view) {
  if (target < 0) return Status::NotFound("before the first entry");
  int64_t acc = 0;
  std::string prev;
  for (int level = kMaxLevel; level >= 1; --level) {
    const std::string lp = LevelPrefix(space, level);
    for (view->Seek(prev.empty() ? lp : After(lp + prev));
         view->Valid() && StartsWith(view->key(), lp); view->Next()) {
      int64_t n = 0;
      LQ_RETURN_IF_ERROR(ReadCount(view->value(), &n));
      if (acc + n > target) break;
      std::string_view ns = view->key().substr(lp.size());
      if (ns == kSentinel) return Status::NotFound("past the last entry");
      acc += n;
      prev.assign(ns);
    }
    LQ_RETURN_IF_ERROR(view->status());
  }
  for (view->Seek(prev.empty() ? space.entries : After(space.entries + prev));
       view->Valid() && StartsWith(view->key(), space.entries); view->Next()) {
    if (acc == target) return std::string(view->key());
    ++acc;
  }
  LQ_RETURN_IF_ERROR(view->status());
  return Status::NotFound("past the last entry");
}

Status Build(const Space& space, KvIterator* view, Sink* sink) {
  std::vector<int64_t> since(kMaxLevel + 1, 0);
  for (view->Seek(space.entries);
       view->Valid() && StartsWith(view->key(), space.entries); view->Next()) {
    std::string_view suffix = view->key().substr(space.entries.size());
    const int height = LevelOf(suffix);
    for (int level = 1; level <= kMaxLevel; ++level) {
      ++since[level];
      if (level <= height) {
        sink->Put(LevelPrefix(space, level) + std::string(suffix),
                  Count(since[level]));
        since[level] = 0;
      }
    }
  }
  LQ_RETURN_IF_ERROR(view->status());
  for (int level = 1; level <= kMaxLevel; ++level) {
    sink->Put(LevelPrefix(space, level) + kSentinel, Count(since[level]));
  }
  return Status::OK();
}

Status Verify(const Space& space, KvStore* store, const KvSnapshot* snapshot) {
  // One cursor per level walks the stored nodes in step with the nodes the
  // entries imply, which arrive in key order on every level.
  std::vector<std::unique_ptr<KvIterator>> nodes(kMaxLevel + 1);
  for (int level = 1; level <= kMaxLevel; ++level) {
    nodes[level] = store->NewIterator(snapshot);
    nodes[level]->Seek(LevelPrefix(space, level));
  }
  auto expect = [&](int level, std::string_view suffix,
                    int64_t count) -> Status {
    const std::string key = LevelPrefix(space, level) + std::string(suffix);
    KvIterator* it = nodes[level].get();
    if (!it->Valid() || it->key() != key) {
      LQ_RETURN_IF_ERROR(it->status());
      return Status::Corruption(
          "ranked index: level " + std::to_string(level) + " lacks a node " +
          (suffix == kSentinel ? "at its end" : "for an entry") +
          (it->Valid() && StartsWith(it->key(), LevelPrefix(space, level))
               ? " (or has one too many)"
               : ""));
    }
    int64_t stored = 0;
    LQ_RETURN_IF_ERROR(ReadCount(it->value(), &stored));
    if (stored != count) {
      return Status::Corruption(
          "ranked index: a level " + std::to_string(level) + " node counts " +
          std::to_string(stored) + " entries, the index has " +
          std::to_string(count));
    }
    it->Next();
    return Status::OK();
  };
  std::vector<int64_t> since(kMaxLevel + 1, 0);
  auto entries = store->NewIterator(snapshot);
  for (entries->Seek(space.entries);
       entries->Valid() && StartsWith(entries->key(), space.entries);
       entries->Next()) {
    std::string_view suffix = entries->key().substr(space.entries.size());
    const int height = LevelOf(suffix);
    for (int level = 1; level <= kMaxLevel; ++level) {
      ++since[level];
      if (level <= height) {
        LQ_RETURN_IF_ERROR(expect(level, suffix, since[level]));
        since[level] = 0;
      }
    }
  }
  LQ_RETURN_IF_ERROR(entries->status());
  for (int level = 1; level <= kMaxLevel; ++level) {
    LQ_RETURN_IF_ERROR(expect(level, kSentinel, since[level]));
    KvIterator* it = nodes[level].get();
    if (it->Valid() && StartsWith(it->key(), LevelPrefix(space, level))) {
      return Status::Corruption(
          "ranked index: a node past the sentinel of "
          "level " +
          std::to_string(level));
    }
  }
  return Status::OK();
}

}  // namespace levelql::ranks
