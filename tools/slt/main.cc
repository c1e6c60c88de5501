// levelql-slt: runs sqllogictest files against levelql.
//
//   levelql-slt [flags] FILE|DIR...
//
// Each file runs in its own fresh database. Failures are printed as they are
// found (in file order, also with --jobs); the last line is always
// "N passed, N failed, N skipped". Exit status: 0 if nothing failed, 1 if
// something did, 2 for usage errors.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "levelql/database.h"
#include "tools/common/temp_dir.h"
#include "tools/slt/slt_file.h"
#include "tools/slt/slt_runner.h"

namespace fs = std::filesystem;

namespace levelql::slt {
namespace {

constexpr const char* kUsage =
    "usage: levelql-slt [flags] FILE|DIR...\n"
    "  Runs sqllogictest files (directories: every *.test below, sorted).\n"
    "  --backend=memory|leveldb|etcd://HOSTS/NAME\n"
    "                            storage for each file's fresh database\n"
    "                            (default memory; leveldb uses a temporary\n"
    "                            directory removed afterwards; etcd a new\n"
    "                            database NAME/<file>-<pid> on the cluster)\n"
    "  --jobs=N                  run N files at once (default 1)\n"
    "  --disable-rules=a,b       PRAGMA disable_rules = 'a,b' in every "
    "database\n"
    "  --stop-on-fail            stop at the first failing record\n"
    "  --rewrite                 rewrite differing `query explain` plans in "
    "place\n"
    "  --verbose                 print each record as it runs\n"
    "  --salt-buckets=N          create every table WITH (salt_buckets = N)\n"
    "                            (Options::default_salt_buckets); `query\n"
    "                            explain` records are skipped\n"
    "  --engine=NAME             the engine name skipif/onlyif test against\n"
    "                            (default levelql; sqlite runs the records\n"
    "                            written for SQLite only)\n"
    "  --page                    also page every query one row at a time\n"
    "                            through continuation tokens, and read each\n"
    "                            row again through a previous-page token\n";

struct Flags {
  std::string backend = "memory";  // memory, leveldb or an etcd:// URL
  int jobs = 1;
  std::string disable_rules;
  int salt_buckets = 0;
  RunOptions run;
  std::vector<std::string> files;
};

int UsageError(const std::string& message) {
  std::cerr << "levelql-slt: " << message
            << "\nusage: levelql-slt [flags] FILE|DIR... (--help for more)\n";
  return 2;
}

// Returns 0, or the exit status for a usage error.
int ParseFlags(int argc, char** argv, Flags* flags) {
  std::vector<std::string> paths;
  bool only_paths = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_paths || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      paths.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_paths = true;
      continue;
    }
    std::string name = arg, value;
    bool has_value = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    auto take_value = [&]() {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return has_value = true;
    };
    if (name == "--help" || name == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (name == "--page" && !has_value) {
      flags->run.page = true;
    } else if (name == "--verbose" && !has_value) {
      flags->run.verbose = true;
    } else if (name == "--stop-on-fail" && !has_value) {
      flags->run.stop_on_fail = true;
    } else if (name == "--rewrite" && !has_value) {
      flags->run.rewrite = true;
    } else if (name == "--backend") {
      if (!take_value()) return UsageError("--backend needs a value");
      if (value != "memory" && value != "leveldb" &&
          !value.starts_with("etcd://")) {
        return UsageError("unknown backend '" + value + "'");
      }
      flags->backend = value;
    } else if (name == "--jobs") {
      if (!take_value()) return UsageError("--jobs needs a value");
      char* end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1 || n > 1024) {
        return UsageError("--jobs needs a number from 1 to 1024");
      }
      flags->jobs = static_cast<int>(n);
    } else if (name == "--salt-buckets") {
      if (!take_value()) return UsageError("--salt-buckets needs a value");
      char* end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1 || n > 256) {
        return UsageError("--salt-buckets needs a number from 1 to 256");
      }
      flags->salt_buckets = static_cast<int>(n);
      flags->run.skip_explain = true;
    } else if (name == "--engine") {
      if (!take_value() || value.empty()) {
        return UsageError("--engine needs a name");
      }
      flags->run.engine = value;
    } else if (name == "--disable-rules") {
      if (!take_value()) return UsageError("--disable-rules needs a value");
      flags->disable_rules = value;
    } else {
      return UsageError("unknown flag '" + arg + "'");
    }
  }
  if (paths.empty()) {
    std::cerr << kUsage;
    return 2;
  }

  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(path, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == ".test") {
          found.push_back(it->path().string());
        }
      }
      if (ec) return UsageError(path + ": " + ec.message());
      std::sort(found.begin(), found.end());
      flags->files.insert(flags->files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      flags->files.push_back(path);
    } else {
      return UsageError(path + ": no such file or directory");
    }
  }
  if (flags->files.empty()) return UsageError("no .test files found");
  return 0;
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::string tmp = path + ".rewrite.tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return Status::IOError("cannot write " + tmp);
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  std::error_code ec;
  if (ok) fs::rename(tmp, path, ec);
  if (!ok || ec) {
    fs::remove(tmp, ec);
    return Status::IOError("cannot write " + path);
  }
  return Status::OK();
}

// A database name for `path` on etcd, unique to this run: the file's path
// with every character outside [A-Za-z0-9_.-] made '_', then the pid.
std::string EtcdName(const std::string& path) {
  std::string name;
  for (char c : path) {
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                    c == '-' || c == '.'
                ? c
                : '_';
  }
  return name + "-" + std::to_string(getpid());
}

struct FileOutcome {
  RunStats stats;
  bool failed = false;  // a record (or the setup) failed
};

// Runs one file in a fresh database, writing everything it reports to `out`.
FileOutcome RunFile(const std::string& path, const Flags& flags,
                    const std::atomic<bool>* cancel, std::ostream& out) {
  FileOutcome outcome;
  auto setup_failure = [&](const std::string& message) {
    out << path << ": " << message << std::endl;
    outcome.stats.failed = 1;
    outcome.failed = true;
    return outcome;
  };

  Result<Script> script = ReadScript(path);
  if (!script.ok()) return setup_failure(script.status().ToString());

  std::unique_ptr<TempDir> dir;
  std::string db_path = ":memory:";
  if (flags.backend.starts_with("etcd://")) {
    db_path = flags.backend + "/" + EtcdName(path);
  } else if (flags.backend == "leveldb") {
    dir = std::make_unique<TempDir>("slt");
    if (dir->path().empty()) {
      return setup_failure("cannot create a temporary directory");
    }
    db_path = dir->path() + "/db";
  }
  Options db_options;
  db_options.default_salt_buckets = flags.salt_buckets;
  auto db = Database::Open(db_path, db_options);
  if (!db.ok()) {
    return setup_failure("cannot open database: " + db.status().ToString());
  }
  if (!flags.disable_rules.empty()) {
    std::string quoted;
    for (char c : flags.disable_rules) {
      quoted += c;
      if (c == '\'') quoted += '\'';
    }
    Status s = (*db)->Execute("PRAGMA disable_rules = '" + quoted + "'");
    if (!s.ok()) return setup_failure("PRAGMA disable_rules: " + s.ToString());
  }

  RunOptions options = flags.run;
  options.cancel = cancel;
  RunResult result = RunScript(*script, **db, options, out);
  db->reset();  // close before the directory goes
  outcome.stats = result.stats;
  outcome.failed = result.stats.failed > 0;
  if (result.rewritten > 0) {
    Status s = WriteFile(path, result.new_text);
    if (!s.ok()) return setup_failure(s.ToString());
    out << path << ": rewrote " << result.rewritten << " plan"
        << (result.rewritten == 1 ? "" : "s") << std::endl;
  }
  return outcome;
}

// Runs the files one after another, printing as it goes.
RunStats RunSequentially(const Flags& flags) {
  RunStats total;
  for (const std::string& path : flags.files) {
    FileOutcome outcome = RunFile(path, flags, nullptr, std::cout);
    total += outcome.stats;
    if (outcome.failed && flags.run.stop_on_fail) break;
  }
  return total;
}

// Runs files on flags.jobs threads; prints each file's report in file order.
// With --stop-on-fail, a failing file cancels every later file, and nothing
// after the first failing file is printed or counted.
RunStats RunInParallel(const Flags& flags) {
  const size_t n = flags.files.size();
  struct Slot {
    std::ostringstream out;
    FileOutcome outcome;
    std::atomic<bool> cancel{false};
    bool done = false;  // guarded by mu
  };
  std::vector<std::unique_ptr<Slot>> slots;
  for (size_t i = 0; i < n; ++i) slots.push_back(std::make_unique<Slot>());
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<size_t> next{0};

  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      Slot& slot = *slots[i];
      if (!slot.cancel.load()) {
        slot.outcome = RunFile(flags.files[i], flags, &slot.cancel, slot.out);
        if (slot.outcome.failed && flags.run.stop_on_fail) {
          for (size_t j = i + 1; j < n; ++j) slots[j]->cancel.store(true);
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      slot.done = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  size_t thread_count = std::min<size_t>(flags.jobs, n);
  for (size_t t = 0; t < thread_count; ++t) threads.emplace_back(worker);

  RunStats total;
  bool stopped = false;
  for (size_t i = 0; i < n && !stopped; ++i) {
    Slot& slot = *slots[i];
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return slot.done; });
    }
    std::cout << slot.out.str() << std::flush;
    total += slot.outcome.stats;
    stopped = slot.outcome.failed && flags.run.stop_on_fail;
  }
  for (std::thread& t : threads) t.join();
  return total;
}

int Main(int argc, char** argv) {
  Flags flags;
  if (int status = ParseFlags(argc, argv, &flags); status != 0) return status;
  RunStats total = flags.jobs > 1 && flags.files.size() > 1
                       ? RunInParallel(flags)
                       : RunSequentially(flags);
  std::cout << SummaryLine(total) << std::endl;
  return total.failed > 0 ? 1 : 0;
}

}  // namespace
}  // namespace levelql::slt

int main(int argc, char** argv) { return levelql::slt::Main(argc, argv); }
