#include "levelql/status.h"

namespace levelql {

std::string_view Status::CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "OK";
    case Code::kSyntaxError:
      return "SyntaxError";
    case Code::kNotSupported:
      return "NotSupported";
    case Code::kTypeError:
      return "TypeError";
    case Code::kConstraintError:
      return "ConstraintError";
    case Code::kNotFound:
      return "NotFound";
    case Code::kCorruption:
      return "Corruption";
    case Code::kIOError:
      return "IOError";
    case Code::kInvalidArgument:
      return "InvalidArgument";
    case Code::kInterrupted:
      return "Interrupted";
    case Code::kLimitExceeded:
      return "LimitExceeded";
    case Code::kBusy:
      return "Busy";
  }
  return "Unknown";
}

const std::string& Status::EmptyMessage() {
  static const std::string empty;
  return empty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(CodeName(code()));
  const std::string& text = message();
  if (text.empty()) return out;
  // Messages that start with a place ("at 1:15: ...") read as
  // "SyntaxError at 1:15: ..."; others as "TypeError: ...".
  if (text.rfind("at ", 0) == 0) {
    out += ' ';
  } else {
    out += ": ";
  }
  out += text;
  return out;
}

}  // namespace levelql
