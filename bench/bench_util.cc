#include "bench/bench_util.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

namespace levelql::bench {

uint64_t Rng::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t Mix(uint64_t seed, uint64_t i) {
  Rng r(seed ^ (i * 0xd1342543de82ef95ULL));
  return r.Next();
}

std::string Concat(std::string_view head, std::string_view tail) {
  std::string out;
  out.reserve(head.size() + tail.size());
  out.append(head);
  out.append(tail);
  return out;
}

uint64_t Fnv64(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

std::string Printf(const char* fmt, double v, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v, unit);
  return buf;
}

// Three significant digits.
const char* Fmt3(double v) {
  if (v >= 100) return "%.0f%s";
  if (v >= 10) return "%.1f%s";
  return "%.2f%s";
}

}  // namespace

std::string FormatSeconds(double s) {
  if (std::isnan(s)) return "-";
  if (s < 1e-3) return Printf(Fmt3(s * 1e6), s * 1e6, " us");
  if (s < 1) return Printf(Fmt3(s * 1e3), s * 1e3, " ms");
  return Printf(Fmt3(s), s, " s");
}

std::string FormatCount(double n) {
  if (std::isnan(n)) return "-";
  if (n >= 1e6) return Printf(Fmt3(n / 1e6), n / 1e6, "M");
  if (n >= 1e3) return Printf(Fmt3(n / 1e3), n / 1e3, "k");
  return Printf("%.0f%s", n, "");
}

std::string FormatMiB(double bytes) {
  if (std::isnan(bytes) || bytes <= 0) return "-";
  return Printf(Fmt3(bytes / 1048576.0), bytes / 1048576.0, " MiB");
}

std::string FormatRatio(double r) {
  if (std::isnan(r)) return "-";
  return Printf(Fmt3(r), r, "x");
}

void Die(const std::string& message) {
  std::cout.flush();
  std::cerr << "levelql-bench: " << message << "\n";
  std::exit(1);
}

int64_t PeakRssSelf() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      return std::atoll(line.c_str() + 6) * 1024;
    }
  }
  return 0;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  if (!(in >> a >> b >> c)) return "";
  return a + " " + b + " " + c;
}

Machine DescribeMachine() {
  Machine m;
  m.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        m.cpu_model = line.substr(colon + 1);
        while (!m.cpu_model.empty() && m.cpu_model.front() == ' ') {
          m.cpu_model.erase(0, 1);
        }
      }
      break;
    }
  }
  struct utsname u;
  if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    m.memory_bytes = static_cast<int64_t>(pages) * page_size;
  }
  return m;
}

std::string JsonEscape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

void JsonWriter::Separator() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ",";
    first_.back() = false;
    out_ += "\n";
    out_.append(first_.size() * 2, ' ');
  }
}

void JsonWriter::BeginObject() {
  Separator();
  out_ += "{";
  first_.push_back(true);
}

void JsonWriter::EndObject() {
  bool empty = first_.back();
  first_.pop_back();
  if (!empty) {
    out_ += "\n";
    out_.append(first_.size() * 2, ' ');
  }
  out_ += "}";
}

void JsonWriter::BeginArray() {
  Separator();
  out_ += "[";
  first_.push_back(true);
}

void JsonWriter::EndArray() {
  bool empty = first_.back();
  first_.pop_back();
  if (!empty) {
    out_ += "\n";
    out_.append(first_.size() * 2, ' ');
  }
  out_ += "]";
}

void JsonWriter::Key(std::string_view k) {
  Separator();
  out_ += '"';
  out_ += JsonEscape(k);
  out_ += "\": ";
  after_key_ = true;
}

void JsonWriter::String(std::string_view s) {
  Separator();
  out_ += '"';
  out_ += JsonEscape(s);
  out_ += '"';
}

void JsonWriter::Number(double d) {
  Separator();
  if (std::isnan(d) || std::isinf(d)) {
    out_ += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", d);
  out_ += buf;
}

void JsonWriter::Int(int64_t i) {
  Separator();
  out_ += std::to_string(i);
}

void JsonWriter::Bool(bool b) {
  Separator();
  out_ += b ? "true" : "false";
}

void JsonWriter::Null() {
  Separator();
  out_ += "null";
}

}  // namespace levelql::bench
