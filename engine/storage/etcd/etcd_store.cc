#include "engine/storage/etcd/etcd_store.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "engine/storage/etcd/etcd_client.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

using etcdserverpb::Compare;
using etcdserverpb::RangeRequest;
using etcdserverpb::RangeResponse;

// Keys per Range call: the first page is small (a point lookup or a short
// index range reads a few keys), each further page of the same scan twice
// the last, up to kMaxPage.
constexpr int64_t kFirstPage = 16;
constexpr int64_t kMaxPage = 1024;
// Keys per read-only transaction of MultiGet: etcd's default --max-txn-ops.
constexpr size_t kMultiGetKeys = 128;

// A read at a revision already applied gives the same answer on every
// member, so it needs no round through the leader (serializable); a read of
// the latest state (revision 0) does (linearizable). A member that has not
// applied the revision yet answers "future revision", and the client tries
// again.
void SetRevision(RangeRequest* request, int64_t revision) {
  request->set_revision(revision);
  request->set_serializable(revision != 0);
}

class EtcdSnapshot : public KvSnapshot {
 public:
  EtcdSnapshot(int64_t revision, Status status)
      : revision_(revision), status_(std::move(status)) {}
  int64_t revision() const { return revision_; }
  const Status& status() const { return status_; }

 private:
  const int64_t revision_;
  const Status status_;
};

// Where the database's keys live in the cluster's one key space.
struct Layout {
  explicit Layout(const std::string& name)
      : begin(name + '\0'), end(name + '\1'), procs(name + "\1proc") {}
  std::string Key(std::string_view key) const {
    std::string out = begin;
    out.append(key);
    return out;
  }
  const std::string begin;  // N "\0": the first data key
  const std::string end;    // N "\1": past the last data key
  // N "\1proc": before "/" and each writing process's token, its key
  const std::string procs;
};

class EtcdIterator : public KvIterator {
 public:
  EtcdIterator(EtcdClient* client, const Layout* layout,
               const EtcdSnapshot* snapshot)
      : client_(client),
        layout_(layout),
        revision_(snapshot ? snapshot->revision() : 0) {
    if (snapshot) status_ = snapshot->status();
  }

  bool Valid() const override { return status_.ok() && pos_ < page_.size(); }
  void Seek(std::string_view target) override {
    page_size_ = kFirstPage;
    LoadForward(std::string(target));
  }
  void SeekToFirst() override { Seek(""); }
  void SeekToLast() override {
    page_size_ = kFirstPage;
    LoadBackward(nullptr);
  }
  void SeekBefore(std::string_view target) override {
    page_size_ = kFirstPage;
    const std::string bound(target);
    LoadBackward(&bound);
  }
  void SetBounds(std::string_view lower, std::string_view upper) override {
    lower_.assign(lower);
    upper_.assign(upper);
  }
  void Next() override {
    std::string after = page_[pos_].first;
    after.push_back('\0');
    if (!forward_) {
      page_size_ = kFirstPage;
      LoadForward(after);
    } else if (++pos_ == page_.size() && more_) {
      Grow();
      LoadForward(after);
    }
  }
  void Prev() override {
    const std::string before = page_[pos_].first;
    if (forward_) {
      page_size_ = kFirstPage;
      LoadBackward(&before);
    } else if (++pos_ == page_.size() && more_) {
      Grow();
      LoadBackward(&before);
    }
  }
  std::string_view key() const override { return page_[pos_].first; }
  std::string_view value() const override { return page_[pos_].second; }
  Status status() const override { return status_; }

 private:
  void Grow() { page_size_ = std::min(page_size_ * 2, kMaxPage); }

  // Keys >= `from`, ascending. etcd 3.4 visits every key of the range it is
  // asked for, whatever the limit (treeIndex.Revisions collects them all
  // before rangeKeys cuts them to the limit): end the range at the
  // caller's upper bound, not at the database's last key.
  void LoadForward(const std::string& target) {
    const std::string& from = std::max(target, lower_);
    if (!upper_.empty() && from >= upper_) {
      Clear(true);
      return;
    }
    RangeRequest request;
    request.set_key(layout_->Key(from));
    request.set_range_end(upper_.empty() ? layout_->end : layout_->Key(upper_));
    Load(&request, true);
  }

  void Clear(bool forward) {
    page_.clear();
    pos_ = 0;
    forward_ = forward;
    more_ = false;
  }

  // Keys < `*before` (every key when null), descending.
  void LoadBackward(const std::string* before) {
    // etcd sorts a descending range whole before it cuts the page (its
    // rangeLimit ignores the limit when a sort is asked for): start the
    // range at the caller's lower bound, not at the database's first key.
    std::string end = before ? *before : upper_;
    if (!upper_.empty() && end > upper_) end = upper_;
    if (!end.empty() && end <= lower_) {
      Clear(false);
      return;
    }
    RangeRequest request;
    request.set_key(layout_->Key(lower_));
    request.set_range_end(end.empty() ? layout_->end : layout_->Key(end));
    request.set_sort_order(RangeRequest::DESCEND);
    request.set_sort_target(RangeRequest::KEY);
    Load(&request, false);
  }

  void Load(RangeRequest* request, bool forward) {
    page_.clear();
    pos_ = 0;
    forward_ = forward;
    more_ = false;
    if (!status_.ok()) return;
    request->set_limit(page_size_);
    SetRevision(request, revision_);
    RangeResponse response;
    status_ = client_->Range(*request, &response);
    if (!status_.ok()) return;
    // An iterator without a snapshot reads every page at its first one's
    // revision, so it never sees half of a later write.
    if (revision_ == 0) revision_ = response.header().revision();
    page_.reserve(response.kvs_size());
    const size_t skip = layout_->begin.size();
    for (auto& kv : *response.mutable_kvs()) {
      page_.emplace_back(kv.key().substr(skip), std::move(*kv.mutable_value()));
    }
    more_ = response.more();
  }

  EtcdClient* const client_;
  const Layout* const layout_;
  int64_t revision_;
  Status status_;
  std::vector<std::pair<std::string, std::string>> page_;  // in scan order
  size_t pos_ = 0;
  bool forward_ = true;
  bool more_ = false;  // keys beyond the page, in its direction
  int64_t page_size_ = kFirstPage;
  std::string lower_;  // SetBounds': empty, the database's first key
  std::string upper_;  // SetBounds': empty, past the database's last key
};

std::string ProcessToken() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  std::random_device random;
  const uint64_t nonce = (uint64_t{random()} << 32) ^ random();
  return std::string(host) + ":" + std::to_string(getpid()) + ":" +
         std::to_string(nonce);
}

class EtcdStore : public KvStore {
 public:
  EtcdStore(std::string url, std::unique_ptr<EtcdClient> client,
            const std::string& name, const EtcdStoreOptions& options)
      : url_(std::move(url)),
        client_(std::move(client)),
        layout_(name),
        options_(options) {}

  ~EtcdStore() override {
    if (read_only_) return;
    {
      std::lock_guard<std::mutex> lock(keepalive_mu_);
      stopping_ = true;
    }
    keepalive_cv_.notify_all();
    if (keepalive_.joinable()) keepalive_.join();
    // Removes this process's key and its ephemeral keys (a schema lock it
    // still holds) at once; if the cluster is unreachable the lease
    // expires.
    std::lock_guard<std::mutex> lock(write_mu_);
    if (lease_id_ != 0) client_->LeaseRevoke(lease_id_);
  }

  // Probes the cluster, and unless `read_only` registers this process as a
  // writer (its lease and process key).
  Status Start(const Options& options) {
    RangeRequest probe;
    probe.set_key(layout_.begin);
    probe.set_range_end(layout_.end);
    probe.set_limit(1);
    probe.set_keys_only(true);
    RangeResponse response;
    LQ_RETURN_IF_ERROR(
        client_->Range(probe, &response)
            .WithPrefix("cannot open database '" + url_ + "': "));
    if (response.kvs_size() == 0 && !options.create_if_missing) {
      return Status::NotFound("no levelql database at '" + url_ +
                              "' (it has no keys; open it with "
                              "create_if_missing to create it)");
    }
    read_only_ = options.read_only;
    if (read_only_) return Status::OK();
    std::lock_guard<std::mutex> lock(write_mu_);
    LQ_RETURN_IF_ERROR(Register());
    keepalive_ = std::thread([this] { KeepAlive(); });
    return Status::OK();
  }

  bool shared() const override { return true; }
  bool remote() const override { return true; }

  uint64_t SnapshotId(const KvSnapshot* snapshot) override {
    const auto* snap = static_cast<const EtcdSnapshot*>(snapshot);
    return snap && snap->status().ok() ? snap->revision() : 0;
  }
  std::shared_ptr<const KvSnapshot> SnapshotAt(uint64_t id) override {
    return std::make_shared<EtcdSnapshot>(static_cast<int64_t>(id),
                                          Status::OK());
  }

  // The cluster's latest revision: a linearizable read, so a statement sees
  // every write acknowledged to any process before it started.
  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    RangeRequest request;
    request.set_key(layout_.procs);
    request.set_count_only(true);
    RangeResponse response;
    Status st = client_->Range(request, &response);
    return std::make_shared<EtcdSnapshot>(
        st.ok() ? response.header().revision() : 0, std::move(st));
  }

  // One linearizable Range: the latest revision, and the keys in it.
  std::shared_ptr<const KvSnapshot> GetSnapshotWithPrefix(
      std::string_view prefix,
      std::vector<std::pair<std::string, std::string>>* entries,
      Status* status) override {
    RangeRequest request;
    request.set_key(layout_.Key(prefix));
    // Never empty: the database's keys start with its name and "\0".
    request.set_range_end(keys::PrefixSuccessor(layout_.Key(prefix)));
    RangeResponse response;
    *status = client_->Range(request, &response);
    entries->clear();
    if (status->ok()) {
      const size_t skip = layout_.begin.size();
      for (auto& kv : *response.mutable_kvs()) {
        entries->emplace_back(kv.key().substr(skip),
                              std::move(*kv.mutable_value()));
      }
    }
    return std::make_shared<EtcdSnapshot>(
        status->ok() ? response.header().revision() : 0, *status);
  }

  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override {
    RangeRequest request;
    request.set_key(layout_.Key(key));
    std::shared_ptr<const KvSnapshot> latest;
    if (!snapshot) {
      latest = GetSnapshot();
      snapshot = latest.get();
    }
    const auto* snap = static_cast<const EtcdSnapshot*>(snapshot);
    LQ_RETURN_IF_ERROR(snap->status());
    SetRevision(&request, snap->revision());
    RangeResponse response;
    LQ_RETURN_IF_ERROR(client_->Range(request, &response));
    if (response.kvs_size() == 0) return Status::NotFound("key not found");
    *value = std::move(*response.mutable_kvs(0)->mutable_value());
    return Status::OK();
  }

  // Read-only transactions of up to kMultiGetKeys ranges at the snapshot's
  // revision, each serializable, so any member answers without the leader.
  void MultiGet(const KvSnapshot* snapshot,
                const std::vector<std::string>& keys,
                std::vector<std::string>* values,
                std::vector<Status>* statuses) override {
    values->assign(keys.size(), std::string());
    statuses->assign(keys.size(), Status::OK());
    std::shared_ptr<const KvSnapshot> latest;
    if (!snapshot) {
      latest = GetSnapshot();
      snapshot = latest.get();
    }
    const auto* snap = static_cast<const EtcdSnapshot*>(snapshot);
    for (size_t begin = 0; begin < keys.size(); begin += kMultiGetKeys) {
      const size_t end = std::min(keys.size(), begin + kMultiGetKeys);
      Status st = snap->status();
      etcdserverpb::TxnResponse response;
      if (st.ok()) {
        etcdserverpb::TxnRequest request;
        for (size_t i = begin; i < end; ++i) {
          RangeRequest* range = request.add_success()->mutable_request_range();
          range->set_key(layout_.Key(keys[i]));
          SetRevision(range, snap->revision());
        }
        st = client_->ReadTxn(request, &response);
      }
      for (size_t i = begin; i < end; ++i) {
        if (!st.ok()) {
          (*statuses)[i] = st;
          continue;
        }
        auto* range = response.mutable_responses(static_cast<int>(i - begin))
                          ->mutable_response_range();
        if (range->kvs_size() == 0) {
          (*statuses)[i] = Status::NotFound("key not found");
        } else {
          (*values)[i] = std::move(*range->mutable_kvs(0)->mutable_value());
        }
      }
    }
  }

  // One conditional Txn: the batch's own conditions (kv_store.h), and this
  // process's key still holding the value its last write gave it, which
  // the Txn advances. That key settles an outcome the client could not
  // learn (a member died mid-call): advanced means applied, and since every
  // attempt is conditional on the old value, at most one applies.
  Status Write(const WriteBatch& batch,
               bool /*sync: etcd always is*/) override {
    if (read_only_) {
      return Status::NotSupported("the database '" + url_ +
                                  "' is open read-only");
    }
    std::lock_guard<std::mutex> lock(write_mu_);
    int64_t revision = 0;
    if (batch.read_snapshot()) {
      const auto* snap =
          static_cast<const EtcdSnapshot*>(batch.read_snapshot());
      LQ_RETURN_IF_ERROR(snap->status());
      revision = snap->revision();
    }
    for (int attempt = 0;; ++attempt) {
      const std::string next = token_ + ":" + std::to_string(seq_ + 1);
      etcdserverpb::TxnRequest request;
      BuildTxn(batch, revision, next, &request);
      etcdserverpb::TxnResponse response;
      bool unknown = false;
      Status st = client_->Txn(request, &response, &unknown);
      if (st.ok() && response.succeeded()) {
        NoteRevision(response.header().revision());
        ++seq_;
        return Status::OK();
      }
      if (!st.ok() && !unknown) return st;
      // Refused, or unknown: what does this process's key hold now?
      std::string holder;
      int64_t holder_revision = 0;
      LQ_RETURN_IF_ERROR(ReadProcessKey(&holder, &holder_revision));
      if (holder == next) {
        NoteRevision(holder_revision);
        ++seq_;
        return Status::OK();
      }
      if (attempt == 3) {
        return st.ok() ? Status::Busy("etcd kept refusing the write")
                       : std::move(st);
      }
      if (holder == token_ + ":" + std::to_string(seq_)) {
        if (!st.ok()) continue;  // not applied: try again
        return Status::Busy(
            "write conflict on '" + url_ +
            "': another process changed what this statement read (since "
            "revision " +
            std::to_string(revision) +
            "), or the schema; nothing of it was written");
      }
      // The key is gone: the lease expired (the process was paused or cut
      // off for longer than its TTL). Nothing pending can apply any more;
      // register again and retry.
      LQ_RETURN_IF_ERROR(Register());
    }
  }

  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override {
    return std::make_unique<EtcdIterator>(
        client_.get(), &layout_, static_cast<const EtcdSnapshot*>(snapshot));
  }

 private:
  std::string ProcessKey() const { return layout_.procs + "/" + token_; }

  void BuildTxn(const WriteBatch& batch, int64_t revision,
                const std::string& next, etcdserverpb::TxnRequest* request) {
    auto compare = [&](const std::string& key, Compare::CompareResult result,
                       Compare::CompareTarget target) {
      Compare* cmp = request->add_compare();
      cmp->set_key(key);
      cmp->set_result(result);
      cmp->set_target(target);
      return cmp;
    };
    compare(ProcessKey(), Compare::EQUAL, Compare::VALUE)
        ->set_value(token_ + ":" + std::to_string(seq_));
    // etcd refuses a transaction that names a key twice; the batch's last
    // operation on a key is the one that counts, as in LevelDB.
    std::map<std::string_view, const WriteBatch::Op*> last;
    for (const WriteBatch::Op& op : batch.ops()) last[op.key] = &op;
    for (const auto& [key, op] : last) {
      std::string physical = layout_.Key(key);
      // Unchanged since the read snapshot: modified at or before it (a key
      // absent now compares as revision 0).
      if (revision > 0) {
        compare(physical, Compare::LESS, Compare::MOD)
            ->set_mod_revision(revision + 1);
      }
      auto* step = request->add_success();
      if (op->is_delete) {
        step->mutable_request_delete_range()->set_key(std::move(physical));
      } else {
        auto* put = step->mutable_request_put();
        put->set_key(std::move(physical));
        put->set_value(op->value);
        if (op->ephemeral) put->set_lease(lease_id_);
      }
    }
    for (const std::string& key : batch.expected_present()) {
      const std::string physical = layout_.Key(key);
      compare(physical, Compare::GREATER, Compare::MOD)->set_mod_revision(0);
      if (revision > 0 && !last.count(key)) {
        compare(physical, Compare::LESS, Compare::MOD)
            ->set_mod_revision(revision + 1);
      }
    }
    for (const auto& [key, value] : batch.expected_values()) {
      if (value) {
        compare(layout_.Key(key), Compare::EQUAL, Compare::VALUE)
            ->set_value(*value);
      } else {
        // An absent key compares as version 0.
        compare(layout_.Key(key), Compare::EQUAL, Compare::VERSION)
            ->set_version(0);
      }
    }
    auto* mine = request->add_success()->mutable_request_put();
    mine->set_key(ProcessKey());
    mine->set_value(next);
    mine->set_lease(lease_id_);
  }

  // A linearizable read of this process's key; `*revision` is the
  // cluster's.
  Status ReadProcessKey(std::string* value, int64_t* revision) {
    RangeRequest request;
    request.set_key(ProcessKey());
    RangeResponse response;
    LQ_RETURN_IF_ERROR(client_->Range(request, &response));
    *revision = response.header().revision();
    value->clear();
    if (response.kvs_size() > 0) *value = response.kvs(0).value();
    return Status::OK();
  }

  void NoteRevision(int64_t revision) {
    int64_t seen = revision_.load();
    while (seen < revision &&
           !revision_.compare_exchange_weak(seen, revision)) {
    }
  }

  // A new lease and process key (token:0). REQUIRES: write_mu_.
  Status Register() {
    int64_t lease = 0;
    LQ_RETURN_IF_ERROR(client_->LeaseGrant(options_.lease_ttl_seconds, &lease));
    token_ = ProcessToken();
    seq_ = 0;
    etcdserverpb::TxnRequest request;
    auto* put = request.add_success()->mutable_request_put();
    put->set_key(ProcessKey());
    put->set_value(token_ + ":0");
    put->set_lease(lease);
    etcdserverpb::TxnResponse response;
    bool unknown = false;
    Status st = client_->Txn(request, &response, &unknown);
    if (!st.ok() && unknown) {
      std::string holder;
      int64_t revision = 0;
      if (ReadProcessKey(&holder, &revision).ok() && holder == token_ + ":0") {
        st = Status::OK();
      }
    }
    if (!st.ok()) {
      client_->LeaseRevoke(lease);
      return st.WithPrefix("cannot open database '" + url_ + "' for writing: ");
    }
    lease_id_.store(lease);
    return Status::OK();
  }

  void KeepAlive() {
    const auto period =
        std::chrono::milliseconds(options_.lease_ttl_seconds * 1000 / 3);
    std::unique_lock<std::mutex> lock(keepalive_mu_);
    while (!keepalive_cv_.wait_for(lock, period, [&] { return stopping_; })) {
      lock.unlock();
      int64_t ttl = 0;
      // A lost lease needs no action here: the next write finds its
      // process key gone and registers again.
      client_->LeaseKeepAlive(lease_id_.load(), &ttl);
      lock.lock();
    }
  }

  const std::string url_;
  const std::unique_ptr<EtcdClient> client_;
  const Layout layout_;
  const EtcdStoreOptions options_;
  bool read_only_ = false;
  // The revision of this process's last write.
  std::atomic<int64_t> revision_{0};

  std::mutex write_mu_;
  std::string token_;  // guarded by write_mu_
  uint64_t seq_ = 0;   // the process key holds token_:seq_; by write_mu_
  std::atomic<int64_t> lease_id_{0};

  std::thread keepalive_;
  std::mutex keepalive_mu_;
  std::condition_variable keepalive_cv_;
  bool stopping_ = false;
};

std::string UrlText(const EtcdUrl& url) {
  std::string hosts;
  for (const auto& e : url.endpoints) hosts += (hosts.empty() ? "" : ",") + e;
  return std::string(kEtcdScheme) + hosts + "/" + url.prefix;
}

}  // namespace

Result<std::unique_ptr<KvStore>> OpenEtcdStore(
    const EtcdUrl& url, const Options& options,
    const EtcdStoreOptions& etcd_options) {
  auto client = std::make_unique<EtcdClient>(
      url.endpoints, std::chrono::milliseconds(etcd_options.retry_budget_ms));
  auto store = std::make_unique<EtcdStore>(UrlText(url), std::move(client),
                                           url.prefix, etcd_options);
  LQ_RETURN_IF_ERROR(store->Start(options));
  return std::unique_ptr<KvStore>(std::move(store));
}

Status CompactEtcd(const EtcdUrl& url) {
  EtcdClient client(url.endpoints, std::chrono::milliseconds(15000));
  RangeRequest request;
  request.set_key(url.prefix);
  request.set_count_only(true);
  RangeResponse response;
  LQ_RETURN_IF_ERROR(client.Range(request, &response));
  return client.Compact(response.header().revision());
}

}  // namespace levelql
