// Status and Result<T>: how every levelql function reports failure.
//
// A Status is either OK or carries a kind (SyntaxError, NotSupported, ...)
// and a message that already names the place ("at 1:15: expected FROM").
// Result<T> holds either a value or a non-OK Status. Neither throws; no
// exception crosses the public API. Both are plain values and thread-compatible
// (distinct objects may be used from distinct threads without locking).
#ifndef LEVELQL_STATUS_H_
#define LEVELQL_STATUS_H_

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace levelql {

class Status {
 public:
  enum class Code {
    kOk = 0,
    kSyntaxError,
    kNotSupported,
    kTypeError,
    kConstraintError,
    kNotFound,
    kCorruption,
    kIOError,
    kInvalidArgument,
    kInterrupted,
    kLimitExceeded,
    // Another writer holds the database past the busy timeout, or a
    // transaction's snapshot is older than a write it would overwrite.
    kBusy,
  };

  Status() = default;  // OK
  Status(const Status& other)
      : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) {
      rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    }
    return *this;
  }
  // A moved-from error keeps its code (its message goes), as a Status
  // holding its code and message by value did: code that reads a status
  // after moving it still sees the failure.
  Status(Status&& other) noexcept : rep_(std::move(other.rep_)) {
    if (rep_) other.rep_ = Moved(rep_->code);
  }
  Status& operator=(Status&& other) noexcept {
    if (this != &other) {
      rep_ = std::move(other.rep_);
      if (rep_) other.rep_ = Moved(rep_->code);
    }
    return *this;
  }

  static Status OK() { return Status(); }
  static Status SyntaxError(std::string msg) {
    return Status(Code::kSyntaxError, std::move(msg));
  }
  static Status NotSupported(std::string msg) {
    return Status(Code::kNotSupported, std::move(msg));
  }
  static Status TypeError(std::string msg) {
    return Status(Code::kTypeError, std::move(msg));
  }
  static Status ConstraintError(std::string msg) {
    return Status(Code::kConstraintError, std::move(msg));
  }
  static Status NotFound(std::string msg) {
    return Status(Code::kNotFound, std::move(msg));
  }
  static Status Corruption(std::string msg) {
    return Status(Code::kCorruption, std::move(msg));
  }
  static Status IOError(std::string msg) {
    return Status(Code::kIOError, std::move(msg));
  }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status Interrupted(std::string msg) {
    return Status(Code::kInterrupted, std::move(msg));
  }
  static Status LimitExceeded(std::string msg) {
    return Status(Code::kLimitExceeded, std::move(msg));
  }
  static Status Busy(std::string msg) {
    return Status(Code::kBusy, std::move(msg));
  }

  bool ok() const { return rep_ == nullptr; }
  // The same error with `prefix` in front of its message, e.g. a position
  // "at 1:30: " added by a caller that knows where the value came from.
  Status WithPrefix(std::string_view prefix) const {
    if (ok()) return *this;
    return Status(rep_->code, std::string(prefix) + rep_->message);
  }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  const std::string& message() const {
    return rep_ ? rep_->message : EmptyMessage();
  }

  // "SyntaxError at 1:15: expected FROM near \"FORM\"" or "OK".
  std::string ToString() const;
  static std::string_view CodeName(Code code);

 private:
  struct Rep {
    Code code;
    std::string message;
  };
  Status(Code code, std::string msg)
      : rep_(std::make_unique<Rep>(Rep{code, std::move(msg)})) {}
  static const std::string& EmptyMessage();
  // What a moved-from error holds: its code, no message (null if even that
  // cannot be allocated: then it reads as OK).
  static std::unique_ptr<Rep> Moved(Code code) noexcept {
    try {
      return std::make_unique<Rep>(Rep{code, std::string()});
    } catch (...) {
      return nullptr;
    }
  }

  // Null when OK: an OK status is one word, made and dropped for nothing
  // on the paths every row takes; an error owns its code and message.
  std::unique_ptr<Rep> rep_;
};

// Either a T or a non-OK Status.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok());
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace levelql

// Propagates a non-OK Status out of the enclosing function.
#define LQ_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::levelql::Status lq_status_ = (expr);   \
    if (!lq_status_.ok()) return lq_status_; \
  } while (0)

#define LQ_CONCAT_INNER_(a, b) a##b
#define LQ_CONCAT_(a, b) LQ_CONCAT_INNER_(a, b)
// Declares `lhs` from a Result<T> expression or returns its Status.
#define LQ_ASSIGN_OR_RETURN(lhs, expr) \
  LQ_ASSIGN_OR_RETURN_IMPL_(LQ_CONCAT_(lq_result_, __LINE__), lhs, expr)
#define LQ_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // LEVELQL_STATUS_H_
