#include "engine/storage/etcd/etcd_client.h"

#include <grpcpp/grpcpp.h>

#include <thread>

namespace levelql {
namespace {

using Clock = std::chrono::steady_clock;

// How long one call may take before the member is taken as unreachable.
constexpr std::chrono::seconds kCallTimeout{10};
// gRPC's default 4 MiB would cut a page of large rows short: the server's
// own limit (--max-request-bytes) is what bounds a request.
constexpr int kMaxMessageBytes = 512 << 20;

bool Contains(const grpc::Status& s, const char* text) {
  return s.error_message().find(text) != std::string::npos;
}

// Failed without reaching the cluster's state machine: safe to send again.
bool NotSent(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::UNAVAILABLE &&
         (Contains(s, "failed to connect") ||
          Contains(s, "Connection refused") ||
          Contains(s, "etcdserver: no leader") ||
          Contains(s, "etcdserver: not capable"));
}

// The member is down or the cluster is electing a leader: another member
// (or the same one a moment later) may answer.
bool Transient(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::UNAVAILABLE ||
         s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
         Contains(s, "etcdserver: leader changed") ||
         Contains(s, "etcdserver: request timed out") ||
         Contains(s, "required revision is a future revision");
}

Status FromGrpc(const char* what, const grpc::Status& s,
                const std::string& endpoints) {
  const std::string text = s.error_message();
  if (Contains(s, "required revision has been compacted")) {
    return Status::Busy(
        "etcd has compacted the revision this read needs (the snapshot of a "
        "statement, or of a continuation token, is older than the cluster's "
        "last compaction): run the statement again");
  }
  if (Contains(s, "too many operations in txn request")) {
    return Status::LimitExceeded(
        "the statement writes more keys than etcd accepts in one "
        "transaction (the server's --max-txn-ops, 128 by default); levelql "
        "never splits a statement: start etcd with a larger --max-txn-ops "
        "(tools/etcd-cluster.sh uses 100000) or write fewer rows per "
        "statement");
  }
  if (Contains(s, "request is too large") ||
      (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
       Contains(s, "larger than max"))) {
    return Status::LimitExceeded(
        "the statement's write is larger than etcd accepts in one request "
        "(the server's --max-request-bytes, 1.5 MiB by default); levelql "
        "never splits a statement: start etcd with a larger "
        "--max-request-bytes (tools/etcd-cluster.sh uses 64 MiB) or write "
        "fewer rows per statement");
  }
  if (Contains(s, "database space exceeded")) {
    return Status::IOError(
        "etcd is out of space (its --quota-backend-bytes; it raised the "
        "NOSPACE alarm): compact and defragment the cluster, then "
        "`etcdctl alarm disarm` (docs/SCALE_OUT.md)");
  }
  return Status::IOError(std::string("etcd ") + what + " failed on " +
                         endpoints + ": " + text);
}

}  // namespace

struct EtcdClient::Member {
  explicit Member(std::string address) : endpoint(std::move(address)) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(kMaxMessageBytes);
    args.SetMaxSendMessageSize(kMaxMessageBytes);
    channel = grpc::CreateCustomChannel(
        endpoint, grpc::InsecureChannelCredentials(), args);
    kv = etcdserverpb::KV::NewStub(channel);
    lease = etcdserverpb::Lease::NewStub(channel);
  }
  std::string endpoint;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<etcdserverpb::KV::Stub> kv;
  std::unique_ptr<etcdserverpb::Lease::Stub> lease;
};

EtcdClient::EtcdClient(std::vector<std::string> endpoints,
                       std::chrono::milliseconds retry_budget)
    : retry_budget_(retry_budget) {
  for (std::string& e : endpoints) {
    members_.push_back(std::make_unique<Member>(std::move(e)));
  }
}

EtcdClient::~EtcdClient() = default;

std::string EtcdClient::endpoints() const {
  std::string out;
  for (const auto& m : members_) out += (out.empty() ? "" : ",") + m->endpoint;
  return out;
}

template <typename Call>
Status EtcdClient::Retry(const char* what, bool idempotent, bool* unknown,
                         const Call& call) {
  const auto deadline = Clock::now() + retry_budget_;
  auto backoff = std::chrono::milliseconds(20);
  grpc::Status last;
  while (true) {
    size_t index;
    {
      std::lock_guard<std::mutex> lock(mu_);
      index = current_;
    }
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    last = call(*members_[index], &context);
    if (last.ok()) return Status::OK();
    if (!Transient(last)) break;
    if (!idempotent && !NotSent(last)) {
      *unknown = true;
      break;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (current_ == index) current_ = (current_ + 1) % members_.size();
    }
    if (Clock::now() + backoff > deadline) break;
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(500));
  }
  return FromGrpc(what, last, endpoints());
}

Status EtcdClient::Range(const etcdserverpb::RangeRequest& request,
                         etcdserverpb::RangeResponse* response) {
  return Retry("range read", true, nullptr,
               [&](Member& m, grpc::ClientContext* context) {
                 return m.kv->Range(context, request, response);
               });
}

Status EtcdClient::Txn(const etcdserverpb::TxnRequest& request,
                       etcdserverpb::TxnResponse* response, bool* unknown) {
  *unknown = false;
  return Retry("transaction", false, unknown,
               [&](Member& m, grpc::ClientContext* context) {
                 return m.kv->Txn(context, request, response);
               });
}

Status EtcdClient::ReadTxn(const etcdserverpb::TxnRequest& request,
                           etcdserverpb::TxnResponse* response) {
  return Retry("read transaction", true, nullptr,
               [&](Member& m, grpc::ClientContext* context) {
                 return m.kv->Txn(context, request, response);
               });
}

Status EtcdClient::LeaseGrant(int64_t ttl_seconds, int64_t* lease_id) {
  etcdserverpb::LeaseGrantRequest request;
  request.set_ttl(ttl_seconds);
  etcdserverpb::LeaseGrantResponse response;
  bool unknown = false;
  // A grant that may have happened is harmless to repeat: an unused lease
  // expires after its TTL.
  LQ_RETURN_IF_ERROR(Retry("lease grant", true, &unknown,
                           [&](Member& m, grpc::ClientContext* context) {
                             return m.lease->LeaseGrant(context, request,
                                                        &response);
                           }));
  if (!response.error().empty()) {
    return Status::IOError("etcd lease grant failed: " + response.error());
  }
  *lease_id = response.id();
  return Status::OK();
}

Status EtcdClient::LeaseKeepAlive(int64_t lease_id, int64_t* ttl) {
  etcdserverpb::LeaseKeepAliveRequest request;
  request.set_id(lease_id);
  etcdserverpb::LeaseKeepAliveResponse response;
  *ttl = 0;
  return Retry("lease keep-alive", true, nullptr,
               [&](Member& m, grpc::ClientContext* context) {
                 auto stream = m.lease->LeaseKeepAlive(context);
                 if (stream->Write(request) && stream->Read(&response)) {
                   *ttl = response.ttl();
                 }
                 stream->WritesDone();
                 return stream->Finish();
               });
}

Status EtcdClient::LeaseRevoke(int64_t lease_id) {
  etcdserverpb::LeaseRevokeRequest request;
  request.set_id(lease_id);
  etcdserverpb::LeaseRevokeResponse response;
  Status st = Retry("lease revoke", true, nullptr,
                    [&](Member& m, grpc::ClientContext* context) {
                      return m.lease->LeaseRevoke(context, request, &response);
                    });
  // Already expired (or revoked by a retried call): the same outcome.
  if (!st.ok() &&
      st.message().find("requested lease not found") != std::string::npos) {
    return Status::OK();
  }
  return st;
}

Status EtcdClient::Compact(int64_t revision) {
  etcdserverpb::CompactionRequest request;
  request.set_revision(revision);
  request.set_physical(true);
  etcdserverpb::CompactionResponse response;
  return Retry("compaction", true, nullptr,
               [&](Member& m, grpc::ClientContext* context) {
                 return m.kv->Compact(context, request, &response);
               });
}

}  // namespace levelql
