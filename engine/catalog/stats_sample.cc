#include "engine/catalog/stats_sample.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "engine/catalog/key_prefixes.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

using Number = unsigned __int128;
constexpr size_t kNumberBytes = sizeof(Number);
constexpr size_t kParts = kHistogramSamples;
// A part of more than this many shares of the range's bytes that is not
// small makes the sample decline (its keys are too alike to be cut).
constexpr double kCrowdedShares = 32;

std::atomic<uint64_t> sampled_ranges{0};

// The kNumberBytes bytes of `key` from `at` as a big-endian number (zeros
// past its end): keys that share their first `at` bytes, mapped in order.
Number NumberAt(std::string_view key, size_t at) {
  Number u = 0;
  for (size_t i = 0; i < kNumberBytes; ++i) {
    u = (u << 8) |
        (at + i < key.size() ? static_cast<uint8_t>(key[at + i]) : uint8_t{0});
  }
  return u;
}

int64_t Rounded(double x) { return static_cast<int64_t>(std::llround(x)); }

class Sampler {
 public:
  Sampler(KvStore* store, const KvSnapshot* snapshot, const std::string& prefix,
          const std::vector<KeyColumn>& columns)
      : store_(store),
        snapshot_(snapshot),
        prefix_(prefix),
        end_(keys::PrefixSuccessor(prefix)),
        columns_(columns),
        walk_(prefix.size(), &columns),
        boundaries_(columns.size(), 0),
        seen_(columns.size(), 0) {}

  Result<bool> Run(IndexStats* out) {
    if (end_.empty()) return false;
    it_ = store_->NewIterator(snapshot_);
    it_->SetBounds(prefix_, end_);
    if (!PlaceParts()) {
      if (!it_->status().ok()) return it_->status();
      return false;
    }
    const size_t parts = bounds_.size() - 1;
    const size_t stride = std::max<size_t>(1, parts / kStretches);
    for (size_t p = 0; p < parts; ++p) {
      LQ_RETURN_IF_ERROR(ReadPart(p, p % stride == stride / 2));
    }
    if (stretch_bytes_ <= 0 || crowded_) return false;
    IndexStats s;
    // (Bounded: stretches the store's files give almost no bytes, entries
    // still in memory, must not overflow the count.)
    const double estimate =
        std::min(1e15, static_cast<double>(total_ - small_bytes_) *
                           static_cast<double>(stretch_entries_) /
                           static_cast<double>(stretch_bytes_));
    s.entries = std::max(small_entries_ + Rounded(estimate), read_);
    sampled_ranges.fetch_add(1, std::memory_order_relaxed);
    Distinct(&s);
    s.sample_step = 1;
    if (!columns_.empty()) {
      LQ_RETURN_IF_ERROR(CountValues(&s));
      Common(&s);
      s.samples = std::move(samples_);
      if (!s.samples.empty()) {
        s.sample_step = std::max<int64_t>(
            1, Rounded(static_cast<double>(s.entries) /
                       static_cast<double>(s.samples.size())));
      }
    }
    *out = std::move(s);
    return true;
  }

 private:
  bool Under() const {
    return it_->Valid() && it_->key().substr(0, prefix_.size()) == prefix_;
  }
  // Bytes in the files from the range's start to `key`.
  int64_t BytesTo(std::string_view key) {
    return std::max<int64_t>(0, store_->ApproximateBytes(prefix_, key));
  }
  std::string KeyAt(Number u) const {
    std::string key = base_;
    for (size_t i = kNumberBytes; i-- > 0;) {
      key.push_back(static_cast<char>(static_cast<uint8_t>(u >> (8 * i))));
    }
    return key;
  }

  // Cuts the range into kParts slices of about total_/kParts bytes each:
  // bounds_ holds the range's start, the cuts and its end, each with the
  // bytes before it. False when the keys leave too few distinct cuts.
  bool PlaceParts() {
    it_->Seek(prefix_);
    if (!Under()) return false;
    const std::string first(it_->key());
    it_->SeekBefore(end_);
    if (!Under()) return false;
    const std::string last(it_->key());
    // Sizes are measured up to the last key, not the range's end: a file
    // ending there would count its index and filters in the last part.
    last_ = last + '\0';
    total_ = BytesTo(last_);
    if (total_ < kMinSampleBytes) return false;
    const int64_t total = total_;
    size_t common = 0;
    while (common < first.size() && common < last.size() &&
           first[common] == last[common]) {
      ++common;
    }
    base_ = first.substr(0, common);
    const Number lo = NumberAt(first, common);
    const Number hi = NumberAt(last, common);
    if (hi <= lo || hi - lo < kParts) return false;
    // A part within a quarter of its share is close enough.
    tolerance_ = std::max<int64_t>(4096, total / (4 * kParts));
    targets_.clear();
    for (size_t p = 1; p < kParts; ++p) {
      targets_.push_back(Rounded(static_cast<double>(total) *
                                 static_cast<double>(p) / kParts));
    }
    cuts_.assign(targets_.size(), {0, 0});
    Locate(lo, BytesTo(KeyAt(lo)), hi, total, 0, targets_.size());
    bounds_.assign(1, {prefix_, 0});
    for (const auto& [u, bytes] : cuts_) {
      std::string key = KeyAt(u);
      if (key <= bounds_.back().first) continue;
      bounds_.emplace_back(std::move(key), bytes);
    }
    bounds_.emplace_back(end_, total);
    return bounds_.size() - 1 >= kParts / 2;
  }

  // Places targets_[b, e) (ascending bytes) in [lo, hi], whose keys have
  // f_lo and f_hi bytes before them: each at the number whose key has about
  // that many bytes before it. One size query serves every target of an
  // interval.
  void Locate(Number lo, int64_t f_lo, Number hi, int64_t f_hi, size_t b,
              size_t e) {
    if (b == e) return;
    if (hi - lo <= 1 || f_hi - f_lo <= tolerance_) {
      for (size_t i = b; i < e; ++i) {
        cuts_[i] = targets_[i] - f_lo <= f_hi - targets_[i]
                       ? std::pair{lo, f_lo}
                       : std::pair{hi, f_hi};
      }
      return;
    }
    const Number mid = lo + (hi - lo) / 2;
    const int64_t f_mid = BytesTo(KeyAt(mid));
    size_t m = b;
    while (m < e && targets_[m] < f_mid) ++m;
    Locate(lo, f_lo, mid, f_mid, b, m);
    Locate(mid, f_mid, hi, f_hi, m, e);
  }

  // Reads part p: its first entry (its sample), then up to kProbeEntries,
  // and a stretch up to kStretchEntries. A part that ends within its probe
  // is counted exactly and left out of the rate: it is mostly where a range
  // crosses the end of one of the store's files, which the store counts
  // with that file's index and filters (about a part's share or more).
  Status ReadPart(size_t p, bool stretch) {
    const std::string& until = bounds_[p + 1].first;
    it_->Seek(bounds_[p].first);
    const size_t most = stretch ? kStretchEntries : kProbeEntries;
    size_t read = 0;
    for (; read < most && Under() && it_->key() < until; it_->Next()) {
      const std::string_view key = it_->key();
      size_t shared = 0;
      LQ_RETURN_IF_ERROR(walk_.Read(key, &shared));
      for (size_t i = shared; i < columns_.size(); ++i) {
        ++seen_[i];
        if (read > 0) ++boundaries_[i];
      }
      if (read > 0) {
        ++pairs_;
      } else if (!columns_.empty()) {
        samples_.emplace_back(walk_.First(key));
        sample_parts_.push_back(p);
      }
      walk_.Keep(key);
      ++read;
    }
    LQ_RETURN_IF_ERROR(it_->status());
    read_ += static_cast<int64_t>(read);
    const bool ended = !(Under() && it_->key() < until);
    const int64_t bytes = bounds_[p + 1].second - bounds_[p].second;
    if (ended && read < kProbeEntries) {
      small_entries_ += static_cast<int64_t>(read);
      small_bytes_ += bytes;
      small_.push_back({p, static_cast<int64_t>(read)});
      return Status::OK();
    }
    // Keys alike past the bytes the cuts tell apart crowd into one part
    // (a file's index and filters inside a part count less than this).
    if (static_cast<double>(bytes) >
        kCrowdedShares * static_cast<double>(total_) / kParts) {
      crowded_ = true;
    }
    if (stretch) {
      stretch_entries_ += static_cast<int64_t>(read);
      stretch_bytes_ += ended ? bytes : BytesTo(it_->key()) - bounds_[p].second;
    }
    return Status::OK();
  }

  void Distinct(IndexStats* s) const {
    s->distinct.assign(columns_.size(), 0);
    for (size_t i = 0; i < columns_.size(); ++i) {
      int64_t d = seen_[i];
      if (pairs_ > 0) {
        const double rate =
            static_cast<double>(boundaries_[i]) / static_cast<double>(pairs_);
        d = std::max(d,
                     Rounded(1 + rate * static_cast<double>(s->entries - 1)));
      }
      if (i > 0) d = std::max(d, s->distinct[i - 1]);
      s->distinct[i] = std::min(d, s->entries);
    }
  }

  // Few first components read: all of them, one seek from each to the
  // next, unless there are more than kCountedValues. Their count is exact.
  Status CountValues(IndexStats* s) {
    if (seen_[0] > static_cast<int64_t>(kCountedValues / 2)) {
      return Status::OK();
    }
    std::vector<std::string> found;
    it_->Seek(prefix_);
    while (Under()) {
      if (found.size() == kCountedValues) {
        // More than that: at least that many.
        for (int64_t& d : s->distinct) {
          d = std::min(s->entries,
                       std::max(d, static_cast<int64_t>(kCountedValues)));
        }
        return it_->status();
      }
      std::string_view rest = it_->key().substr(prefix_.size());
      const size_t before = rest.size();
      LQ_RETURN_IF_ERROR(keys::SkipComponent(&rest, columns_[0].direction));
      found.emplace_back(
          it_->key().substr(prefix_.size(), before - rest.size()));
      it_->Seek(keys::PrefixSuccessor(prefix_ + found.back()));
    }
    LQ_RETURN_IF_ERROR(it_->status());
    values_ = std::move(found);
    s->distinct[0] = std::min(static_cast<int64_t>(values_.size()), s->entries);
    for (size_t i = 1; i < s->distinct.size(); ++i) {
      s->distinct[i] = std::max(s->distinct[i], s->distinct[0]);
    }
    return Status::OK();
  }

  // The most common first components: among the values counted, or those
  // that start two parts or more, each counted two ways. A value that
  // starts parts holds the entries of each but the last of them (an even
  // share of the parts, or the exact count of a small one), and its keys'
  // bytes before the first and in the last. Or: its keys' bytes, less the
  // small parts'. Bytes count the index and filters of every file of the
  // store that ends among them, so each way can count too many.
  void Common(IndexStats* s) {
    std::vector<std::string> candidates = values_;
    if (candidates.empty()) {
      for (size_t i = 1; i < samples_.size(); ++i) {
        if (samples_[i] == samples_[i - 1] &&
            (candidates.empty() || candidates.back() != samples_[i])) {
          candidates.push_back(samples_[i]);
        }
      }
    }
    // Entries per byte where parts hold entries (small parts counted), and
    // per part that is not small.
    const double per_byte = static_cast<double>(stretch_entries_) /
                            static_cast<double>(stretch_bytes_);
    const size_t parts = bounds_.size() - 1;
    const double per_part =
        parts > small_.size()
            ? static_cast<double>(s->entries - small_entries_) /
                  static_cast<double>(parts - small_.size())
            : 0;
    auto bytes = [&](const std::string& lo, const std::string& hi) {
      return lo < hi ? std::max<int64_t>(0, store_->ApproximateBytes(lo, hi))
                     : int64_t{0};
    };
    std::vector<std::pair<std::string, int64_t>> counted;
    for (std::string& value : candidates) {
      const std::string lo = prefix_ + value;
      const std::string hi = std::min(keys::PrefixSuccessor(lo), last_);
      // The parts this value starts.
      auto first = std::lower_bound(samples_.begin(), samples_.end(), value);
      auto past = std::upper_bound(first, samples_.end(), value);
      double n = 0;
      if (past > first) {
        // Each part it starts: a small one's exact count; the last, its
        // keys' bytes; the others an even share. Before the first, its
        // keys' bytes in the part before (a few entries when that is small).
        for (auto at = first; at < past; ++at) {
          const size_t p = sample_parts_[at - samples_.begin()];
          if (const int64_t* exact = SmallCount(p)) {
            n += static_cast<double>(*exact);
          } else if (at + 1 < past) {
            n += per_part;
          } else {
            n += static_cast<double>(bytes(bounds_[p].first, hi)) * per_byte;
          }
        }
        const size_t p_first = sample_parts_[first - samples_.begin()];
        if (p_first > 0 && SmallCount(p_first - 1) == nullptr) {
          n +=
              static_cast<double>(bytes(lo, bounds_[p_first].first)) * per_byte;
        }
      }
      // Its keys' bytes, less those of the small parts among them. Each
      // way counts too much where a file of the store ends among the keys
      // it reads by bytes: the lesser is kept.
      int64_t in_bytes = bytes(lo, hi);
      double in_small = 0;
      for (const auto& [p, entries] : small_) {
        if (bounds_[p].first >= lo && bounds_[p + 1].first <= hi) {
          in_bytes -= bounds_[p + 1].second - bounds_[p].second;
          in_small += static_cast<double>(entries);
        }
      }
      const double by_bytes =
          in_small +
          static_cast<double>(std::max<int64_t>(0, in_bytes)) * per_byte;
      n = past > first ? std::min(n, by_bytes) : by_bytes;
      const int64_t count = std::min(s->entries, Rounded(n));
      if (count > 0) counted.emplace_back(std::move(value), count);
    }
    // The most first; on a tie the earlier value, as a full read keeps them.
    std::stable_sort(
        counted.begin(), counted.end(),
        [](const auto& a, const auto& b) { return a.second > b.second; });
    if (counted.size() > kCommonValues) counted.resize(kCommonValues);
    s->common = std::move(counted);
  }

  // The entries of part p when it is small, else null.
  const int64_t* SmallCount(size_t p) const {
    auto it = std::lower_bound(
        small_.begin(), small_.end(), p,
        [](const auto& small, size_t part) { return small.first < part; });
    return it != small_.end() && it->first == p ? &it->second : nullptr;
  }

  KvStore* store_;
  const KvSnapshot* snapshot_;
  const std::string prefix_, end_;
  const std::vector<KeyColumn>& columns_;
  std::unique_ptr<KvIterator> it_;
  KeyPrefixes walk_;

  std::string base_;   // the first and last keys' common prefix
  std::string last_;   // just after the range's last key
  int64_t total_ = 0;  // the bytes before last_
  int64_t tolerance_ = 0;
  std::vector<int64_t> targets_;
  std::vector<std::pair<Number, int64_t>> cuts_;
  // The parts' bounds, each with the bytes before it (the first: the
  // range's start; the last: its end).
  std::vector<std::pair<std::string, int64_t>> bounds_;

  bool crowded_ = false;       // a part holds too much of the range
  int64_t read_ = 0;           // entries read
  int64_t small_entries_ = 0;  // in parts that ended within the probe ...
  int64_t small_bytes_ = 0;    // ... and the bytes counted for them
  // Those parts (ascending) and their entries.
  std::vector<std::pair<size_t, int64_t>> small_;
  int64_t stretch_entries_ = 0;       // entries the stretches read ...
  int64_t stretch_bytes_ = 0;         // ... and the bytes they take
  int64_t pairs_ = 0;                 // adjacent entries a stretch read
  std::vector<int64_t> boundaries_;   // [i]: pairs whose i+1 prefix differs
  std::vector<int64_t> seen_;         // [i]: distinct i+1 prefixes read
  std::vector<std::string> samples_;  // the first component of each part
  std::vector<size_t> sample_parts_;  // ... and that part
  std::vector<std::string> values_;   // every first component, when counted
};

}  // namespace

uint64_t SampledRanges() {
  return sampled_ranges.load(std::memory_order_relaxed);
}

Result<bool> SampleKeys(KvStore* store, const KvSnapshot* snapshot,
                        const std::string& prefix,
                        const std::vector<KeyColumn>& columns,
                        IndexStats* out) {
  Sampler sampler(store, snapshot, prefix, columns);
  return sampler.Run(out);
}

}  // namespace levelql
