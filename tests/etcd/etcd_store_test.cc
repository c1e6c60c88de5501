// The etcd KvStore (issue 17) against the contract LevelDB defines: the same
// random batches applied to both, then the same random walks of iterators
// over current and older snapshots must see the same keys and values; and
// the conditions several writers' batches commit under, the processes'
// leases, and the server's limits.
#include "engine/storage/etcd/etcd_store.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "engine/storage/etcd/etcd_client.h"
#include "tests/etcd/etcd_cluster.h"
#include "tests/support/env.h"

namespace levelql {
namespace {

using testing::SharedEtcdEndpoints;
using testing::UniqueEtcdName;

class EtcdStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto endpoints = SharedEtcdEndpoints();
    ASSERT_TRUE(endpoints.ok()) << endpoints.status().ToString();
    endpoints_ = *endpoints;
  }
  Result<EtcdUrl> Url(const std::string& name) {
    return ParseEtcdUrl("etcd://" + endpoints_ + "/" + name);
  }
  std::unique_ptr<KvStore> Open(const std::string& name,
                                const Options& options = {},
                                const EtcdStoreOptions& etcd = {}) {
    auto url = Url(name);
    EXPECT_TRUE(url.ok()) << url.status().ToString();
    auto store = OpenEtcdStore(*url, options, etcd);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(*store) : nullptr;
  }
  std::string endpoints_;
};

// Keys from a small alphabet, with the bytes that matter at boundaries
// (0x00, 0x01, 0xff), so that keys share prefixes and pages end anywhere.
std::string RandomKey(std::mt19937_64& rng) {
  static const char kBytes[] = {'\0', '\1', 'a', 'b', 'c', '\xff'};
  std::string key(1 + rng() % 4, ' ');
  for (char& c : key) c = kBytes[rng() % sizeof(kBytes)];
  return key;
}

// One random walk: a start (Seek, SeekBefore, SeekToFirst, SeekToLast),
// then up to 60 Next/Prev steps; the keys and values seen, as text.
// The contract of SetBounds, as a model: an iterator over the keys of
// `base` inside [lower, upper) only, as if the store held no others.
class BoundedModel : public KvIterator {
 public:
  explicit BoundedModel(std::unique_ptr<KvIterator> base)
      : base_(std::move(base)) {}
  void SetBounds(std::string_view lower, std::string_view upper) override {
    lower_ = lower;
    upper_ = upper;
  }
  bool Valid() const override {
    return base_->Valid() && base_->key() >= lower_ &&
           (upper_.empty() || base_->key() < upper_);
  }
  void Seek(std::string_view target) override {
    base_->Seek(std::max(std::string(target), lower_));
  }
  void SeekBefore(std::string_view target) override {
    std::string bound(target);
    if (!upper_.empty()) bound = std::min(bound, upper_);
    base_->SeekBefore(bound);
  }
  void SeekToFirst() override { Seek(lower_); }
  void SeekToLast() override {
    if (upper_.empty()) {
      base_->SeekToLast();
    } else {
      base_->SeekBefore(upper_);
    }
  }
  void Next() override { base_->Next(); }
  void Prev() override { base_->Prev(); }
  std::string_view key() const override { return base_->key(); }
  std::string_view value() const override { return base_->value(); }
  Status status() const override { return base_->status(); }

 private:
  std::unique_ptr<KvIterator> base_;
  std::string lower_, upper_;
};

// Most walks first set bounds (a lower one, an upper one, or both).
std::string Walk(KvIterator* it, std::mt19937_64 rng) {
  std::string out;
  std::string lower, upper;
  if (rng() % 4 != 0) {
    if (rng() % 3 != 0) lower = RandomKey(rng);
    if (rng() % 3 != 0) upper = RandomKey(rng);
    it->SetBounds(lower, upper);
  }
  auto inside = [&] {
    return it->Valid() && it->key() >= lower &&
           (upper.empty() || it->key() < upper);
  };
  const std::string target = RandomKey(rng);
  switch (rng() % 4) {
    case 0:
      it->Seek(target);
      break;
    case 1:
      it->SeekBefore(target);
      break;
    case 2:
      it->SeekToFirst();
      break;
    default:
      it->SeekToLast();
      break;
  }
  const bool mostly_forward = rng() % 2;
  for (int step = 0; step < 60 && inside(); ++step) {
    out += std::string(it->key()) + "=" + std::string(it->value()) + ";";
    if ((rng() % 5 != 0) == mostly_forward) {
      it->Next();
    } else {
      it->Prev();
    }
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out + (inside() ? "" : "<end>");
}

TEST_F(EtcdStoreTest, MatchesLevelDbOnRandomBatchesAndWalks) {
  auto etcd = Open(UniqueEtcdName("contract"));
  ASSERT_NE(etcd, nullptr);
  auto leveldb = OpenLevelDbStore(":memory:", Options());
  ASSERT_TRUE(leveldb.ok());
  for (uint64_t seed : testing::TestSeeds("etcd_contract", {1, 2})) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::shared_ptr<const KvSnapshot>,
                          std::shared_ptr<const KvSnapshot>>>
        snapshots;
    for (int round = 0; round < 30; ++round) {
      WriteBatch batch;
      const int ops = 1 + rng() % 80;
      for (int i = 0; i < ops; ++i) {
        std::string key = RandomKey(rng);
        if (rng() % 4 == 0) {
          batch.Delete(std::move(key));
        } else {
          batch.Put(std::move(key), std::to_string(round) + "." +
                                        std::to_string(i) +
                                        std::string(rng() % 3, '\0'));
        }
      }
      ASSERT_TRUE(etcd->Write(batch, false).ok());
      ASSERT_TRUE((*leveldb)->Write(batch, false).ok());
      snapshots.emplace_back(etcd->GetSnapshot(), (*leveldb)->GetSnapshot());
      for (int w = 0; w < 8; ++w) {
        // Now and then an older snapshot, or none (the latest state).
        const size_t pick = rng() % (snapshots.size() + 1);
        const KvSnapshot* a =
            pick < snapshots.size() ? snapshots[pick].first.get() : nullptr;
        const KvSnapshot* b =
            pick < snapshots.size() ? snapshots[pick].second.get() : nullptr;
        const uint64_t walk_seed = rng();
        auto ita = etcd->NewIterator(a);
        auto itb = std::make_unique<BoundedModel>((*leveldb)->NewIterator(b));
        ASSERT_EQ(Walk(ita.get(), std::mt19937_64(walk_seed)),
                  Walk(itb.get(), std::mt19937_64(walk_seed)))
            << "round " << round << " walk " << w;
        const std::string key = RandomKey(rng);
        std::string va, vb;
        Status sa = etcd->Get(a, key, &va);
        Status sb = (*leveldb)->Get(b, key, &vb);
        ASSERT_EQ(sa.code(), sb.code()) << sa.ToString() << sb.ToString();
        ASSERT_EQ(va, vb);
      }
    }
  }
}

TEST_F(EtcdStoreTest, LongScansPageInBothDirections) {
  auto etcd = Open(UniqueEtcdName("pages"));
  ASSERT_NE(etcd, nullptr);
  WriteBatch batch;
  for (int i = 0; i < 5000; ++i) {
    char key[16];
    snprintf(key, sizeof(key), "k%06d", i);
    batch.Put(key, std::to_string(i));
  }
  ASSERT_TRUE(etcd->Write(batch, false).ok());
  auto snapshot = etcd->GetSnapshot();
  WriteBatch later;
  later.Delete("k000100");
  later.Put("k000100x", "new");
  ASSERT_TRUE(etcd->Write(later, false).ok());
  auto it = etcd->NewIterator(snapshot.get());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
    ASSERT_EQ(it->value(), std::to_string(n));
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(n, 5000);  // the snapshot does not see the later write
  for (it->SeekToLast(); it->Valid(); it->Prev()) --n;
  EXPECT_EQ(n, 0);
  auto now = etcd->NewIterator(nullptr);
  now->Seek("k000099");
  now->Next();
  ASSERT_TRUE(now->Valid());
  EXPECT_EQ(now->key(), "k000100x");
}

std::string Read(KvStore* store, const std::string& key) {
  std::string value;
  Status st = store->Get(nullptr, key, &value);
  return st.ok() ? value : st.ToString();
}

TEST_F(EtcdStoreTest, SeveralWritersWriteUnderTheirBatchesConditions) {
  const std::string name = UniqueEtcdName("writers");
  auto a = Open(name);
  auto b = Open(name);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(a->shared());
  WriteBatch put;
  put.Put("k", "a1");
  put.Put("gone", "x");
  ASSERT_TRUE(a->Write(put, false).ok());
  auto before = a->GetSnapshot();  // sees k = a1, gone = x

  WriteBatch other;
  other.Put("k", "b1");
  other.Delete("gone");
  ASSERT_TRUE(b->Write(other, false).ok());  // no conditions: applies

  // A key written since the read snapshot: first writer wins.
  WriteBatch stale;
  stale.set_read_snapshot(before);
  stale.Put("k", "a2");
  stale.Put("new", "1");
  Status st = a->Write(stale, false);
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  EXPECT_NE(st.message().find("write conflict"), std::string::npos);
  EXPECT_EQ(Read(a.get(), "k"), "b1");
  EXPECT_NE(Read(a.get(), "new"), "1");  // nothing of it was written

  // A row read at the snapshot and deleted since: its update must not
  // bring it back, although the key is unchanged "since" (absent).
  WriteBatch resurrect;
  resurrect.set_read_snapshot(before);
  resurrect.ExpectPresent("gone");
  resurrect.Put("gone", "y");
  EXPECT_EQ(a->Write(resurrect, false).code(), Status::Code::kBusy);
  EXPECT_NE(Read(b.get(), "gone"), "y");

  // Expected values: absent, then present.
  WriteBatch claim;
  claim.ExpectValue("lock", std::nullopt);
  claim.Put("lock", "a");
  ASSERT_TRUE(a->Write(claim, false).ok());
  WriteBatch claim_too;
  claim_too.ExpectValue("lock", std::nullopt);
  claim_too.Put("lock", "b");
  EXPECT_EQ(b->Write(claim_too, false).code(), Status::Code::kBusy);
  WriteBatch release;
  release.ExpectValue("lock", std::string("a"));
  release.Delete("lock");
  ASSERT_TRUE(a->Write(release, false).ok());

  // From a fresh snapshot the same change applies.
  WriteBatch fresh;
  fresh.set_read_snapshot(a->GetSnapshot());
  fresh.Put("k", "a2");
  ASSERT_TRUE(a->Write(fresh, false).ok());
  EXPECT_EQ(Read(b.get(), "k"), "a2");

  Options read_only;
  read_only.read_only = true;
  auto reader = OpenEtcdStore(*Url(name), read_only);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->Write(fresh, false).code(), Status::Code::kNotSupported);
  EXPECT_EQ(Read(reader->get(), "k"), "a2");  // sees the latest
}

TEST_F(EtcdStoreTest, EphemeralKeysGoWithTheirProcess) {
  const std::string name = UniqueEtcdName("ephemeral");
  auto a = Open(name);
  auto b = Open(name);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  WriteBatch batch;
  batch.PutEphemeral("lock", "a");
  batch.Put("row", "kept");
  ASSERT_TRUE(a->Write(batch, false).ok());
  EXPECT_EQ(Read(b.get(), "lock"), "a");
  a.reset();  // the process ends: its lease is revoked
  EXPECT_NE(Read(b.get(), "lock"), "a");
  EXPECT_EQ(Read(b.get(), "row"), "kept");
}

TEST_F(EtcdStoreTest, AWriterWhoseLeaseExpiredRegistersAgain) {
  const std::string name = UniqueEtcdName("lease");
  auto store = Open(name);
  ASSERT_NE(store, nullptr);
  // What an expired lease does: the process key goes.
  auto url = Url(name);
  ASSERT_TRUE(url.ok());
  EtcdClient client(url->endpoints, std::chrono::milliseconds(5000));
  etcdserverpb::TxnRequest txn;
  auto* del = txn.add_success()->mutable_request_delete_range();
  del->set_key(name + "\1proc/");
  del->set_range_end(name + "\1proc0");
  etcdserverpb::TxnResponse response;
  bool unknown = false;
  ASSERT_TRUE(client.Txn(txn, &response, &unknown).ok());
  ASSERT_EQ(response.responses(0).response_delete_range().deleted(), 1);
  WriteBatch batch;
  batch.Put("row", "x");
  ASSERT_TRUE(store->Write(batch, false).ok());
  EXPECT_EQ(Read(store.get(), "row"), "x");
}

TEST_F(EtcdStoreTest, ABatchPastTheServersLimitFailsWholeAndNamesTheFlag) {
  auto store = Open(UniqueEtcdName("limit"));
  ASSERT_NE(store, nullptr);
  WriteBatch batch;  // the fixture's --max-txn-ops is 100000
  for (int i = 0; i <= 100000; ++i) batch.Put("k" + std::to_string(i), "");
  Status st = store->Write(batch, false);
  EXPECT_EQ(st.code(), Status::Code::kLimitExceeded) << st.ToString();
  EXPECT_NE(st.message().find("--max-txn-ops"), std::string::npos);
  auto it = store->NewIterator(nullptr);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());  // nothing of it was written
  EXPECT_TRUE(it->status().ok());
}

TEST_F(EtcdStoreTest, MissingDatabaseWithoutCreateIfMissing) {
  Options options;
  options.create_if_missing = false;
  auto url = Url(UniqueEtcdName("missing"));
  auto store = OpenEtcdStore(*url, options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace levelql
