// Collations: see collation.h. ICU is used only through const calls on
// objects built once in Get(), which is what makes Collation thread-safe.
#include "indexes/collation.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/ucoleitr.h>
#include <unicode/uloc.h>
#include <unicode/unistr.h>
#include <unicode/uversion.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace levelql {
namespace {

// ---- UTF-8 -----------------------------------------------------------------

// Decodes the code point at s[*pos] and advances *pos. REQUIRES: valid UTF-8
// (on bad input it returns U+FFFD and advances by one byte, never past end).
char32_t DecodeUtf8(std::string_view s, size_t* pos) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  size_t i = *pos;
  const uint8_t c = p[i];
  int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  bool bad = c >= 0x80 && (c < 0xC2 || c > 0xF4 || i + len > n);
  for (int k = 1; k < len && !bad; ++k) bad = (p[i + k] & 0xC0) != 0x80;
  if (bad) {
    *pos = i + 1;
    return 0xFFFD;
  }
  char32_t cp = len == 1   ? c
                : len == 2 ? (c & 0x1F)
                : len == 3 ? (c & 0x0F)
                           : (c & 0x07);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (p[i + k] & 0x3F);
  *pos = i + len;
  return cp;
}

bool IsAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x80;
  });
}

// The smallest string greater than every string that starts with `s`, or ""
// (no upper bound) when there is none.
std::string Successor(std::string s) {
  while (!s.empty() && static_cast<uint8_t>(s.back()) == 0xFF) s.pop_back();
  if (!s.empty())
    s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
  return s;
}

// ---- LIKE patterns ---------------------------------------------------------

struct LikeToken {
  enum Kind { kLiteral, kAny, kOne } kind;
  std::string literal;  // kLiteral: the text, escapes removed (UTF-8)
};

// Splits `pattern` into literal runs and wildcards (adjacent '%' merged).
// Returns false when the pattern ends in a lone escape (it matches nothing).
bool ParseLike(std::string_view pattern, std::optional<char32_t> escape,
               std::vector<LikeToken>* tokens) {
  tokens->clear();
  for (size_t i = 0; i < pattern.size();) {
    size_t start = i;
    char32_t c = DecodeUtf8(pattern, &i);
    LikeToken::Kind kind = LikeToken::kLiteral;
    if (escape && c == *escape) {
      if (i >= pattern.size()) return false;
      start = i;
      c = DecodeUtf8(pattern, &i);
    } else if (c == U'%') {
      kind = LikeToken::kAny;
    } else if (c == U'_') {
      kind = LikeToken::kOne;
    }
    if (kind == LikeToken::kLiteral) {
      if (tokens->empty() || tokens->back().kind != LikeToken::kLiteral) {
        tokens->push_back({LikeToken::kLiteral, {}});
      }
      // Its bytes as written (a BLOB's invalid UTF-8 matches itself).
      tokens->back().literal.append(pattern.substr(start, i - start));
    } else if (kind == LikeToken::kOne || tokens->empty() ||
               tokens->back().kind != LikeToken::kAny) {
      tokens->push_back({kind, {}});
    }
  }
  return true;
}

// A LIKE pattern for GlobMatch: the bytes of its literal runs (UTF-8,
// folded under nocase and search), and these two for '%' and '_'.
using GlobPattern = std::vector<int>;
constexpr int kGlobAny = -1;
constexpr int kGlobOne = -2;

// Past the character that starts at text[i], as SQLite reads UTF-8: a
// lead byte (0xC0 and up) with the continuation bytes after it, or any
// other byte alone.
size_t NextCodePoint(std::string_view text, size_t i) {
  if (static_cast<unsigned char>(text[i++]) < 0xC0) return i;
  while (i < text.size() &&
         (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
    ++i;
  }
  return i;
}

// '%'/'_' matching over UTF-8 text: the classic single-backtrack algorithm
// (on a mismatch, let the last '%' swallow one more character), O(n * m).
// A literal byte matches the same byte, '_' one code point (a lead byte and
// the continuation bytes after it, as SQLite steps over invalid UTF-8); the
// text is only ever entered at a code point's start, where a literal run's
// bytes match exactly when its code points do (UTF-8 is self-synchronizing),
// so on valid UTF-8 this is matching code point by code point without
// decoding any.
bool GlobMatch(std::string_view text, const GlobPattern& pat) {
  size_t t = 0, p = 0;
  size_t star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pat.size() && pat[p] == kGlobOne) {
      t = NextCodePoint(text, t);
      ++p;
    } else if (p < pat.size() &&
               pat[p] == static_cast<unsigned char>(text[t])) {
      ++t;
      ++p;
    } else if (p < pat.size() && pat[p] == kGlobAny) {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = mark = NextCodePoint(text, mark);
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == kGlobAny) ++p;
  return p == pat.size();
}

// ---- ICU helpers -----------------------------------------------------------

icu::UnicodeString ToUnicode(std::string_view utf8) {
  return icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
}

struct Normalizers {
  const icu::Normalizer2* nfkc_cf = nullptr;
  const icu::Normalizer2* nfd = nullptr;
  const icu::Normalizer2* nfc = nullptr;
  bool ok = false;
};

// ICU's normalizer singletons, looked up once. They are thread-safe.
const Normalizers& GetNormalizers() {
  static const Normalizers n = [] {
    Normalizers r;
    UErrorCode st = U_ZERO_ERROR;
    r.nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(st);
    r.nfd = icu::Normalizer2::getNFDInstance(st);
    r.nfc = icu::Normalizer2::getNFCInstance(st);
    r.ok = U_SUCCESS(st);
    return r;
  }();
  return n;
}

// Replaces *out with the sort key of s[0, len) without its trailing 0x00.
void IcuSortKey(const UCollator* coll, const UChar* s, int32_t len,
                std::string* out) {
  out->resize(std::max<size_t>(out->capacity(), 3 * len + 16));
  int32_t n =
      ucol_getSortKey(coll, s, len, reinterpret_cast<uint8_t*>(out->data()),
                      static_cast<int32_t>(out->size()));
  if (n > static_cast<int32_t>(out->size())) {
    out->resize(n);
    n = ucol_getSortKey(coll, s, len, reinterpret_cast<uint8_t*>(out->data()),
                        n);
  }
  out->resize(n > 0 ? n - 1 : 0);
}

// The primary-level part of a sort key: the bytes before the first level
// separator (0x01, which no weight byte uses).
std::string_view PrimaryPart(std::string_view key) {
  return key.substr(0, std::min(key.find('\x01'), key.size()));
}

std::string VersionString(const UVersionInfo v) {
  char buf[U_MAX_VERSION_STRING_LENGTH];
  u_versionToString(v, buf);
  return buf;
}

// Opens the collator for BCP 47 `tag`, or says why not (`name` is the
// collation name as the user wrote it). Sets *canonical to the tag ICU gives
// back for the locale.
Result<UCollator*> OpenIcu(std::string_view name, const std::string& tag,
                           std::string* canonical) {
  char loc[ULOC_FULLNAME_CAPACITY] = {};
  int32_t parsed = 0;
  UErrorCode st = U_ZERO_ERROR;
  uloc_forLanguageTag(tag.c_str(), loc, sizeof(loc) - 1, &parsed, &st);
  if (tag.empty() || U_FAILURE(st) ||
      parsed != static_cast<int32_t>(tag.size())) {
    return Status::InvalidArgument("collation \"" + std::string(name) +
                                   "\": \"" + tag +
                                   "\" is not a BCP 47 language tag");
  }
  UCollator* coll = ucol_open(loc, &st);
  if (U_FAILURE(st)) {
    return Status::InvalidArgument("collation \"" + std::string(name) +
                                   "\": ICU cannot open locale \"" + tag +
                                   "\" (" + u_errorName(st) + ")");
  }
  char lang[ULOC_LANG_CAPACITY] = {};
  UErrorCode lst = U_ZERO_ERROR;
  uloc_getLanguage(loc, lang, sizeof(lang) - 1, &lst);
  UErrorCode vst = U_ZERO_ERROR;
  const char* valid = ucol_getLocaleByType(coll, ULOC_VALID_LOCALE, &vst);
  std::string_view lang_sv(lang);
  // ICU falls back to the root order for a language it knows nothing about.
  if (valid != nullptr && std::string_view(valid) == "root" &&
      !lang_sv.empty() && lang_sv != "root" && lang_sv != "und") {
    ucol_close(coll);
    return Status::InvalidArgument("collation \"" + std::string(name) +
                                   "\": ICU has no collation for locale \"" +
                                   tag + "\"");
  }
  // ICU also ignores an unknown collation type (-u-co-xxx) silently.
  char type[64] = {};
  UErrorCode kst = U_ZERO_ERROR;
  if (uloc_getKeywordValue(loc, "collation", type, sizeof(type) - 1, &kst) >
      0) {
    bool known = false;
    UErrorCode est = U_ZERO_ERROR;
    UEnumeration* types =
        ucol_getKeywordValuesForLocale("collation", loc, false, &est);
    while (U_SUCCESS(est)) {
      const char* t = uenum_next(types, nullptr, &est);
      if (t == nullptr) break;
      known = known || std::string_view(t) == type;
    }
    uenum_close(types);
    if (!known) {
      ucol_close(coll);
      return Status::InvalidArgument("collation \"" + std::string(name) +
                                     "\": ICU has no collation type \"" + type +
                                     "\" for \"" + tag + "\"");
    }
  }
  char bcp47[ULOC_FULLNAME_CAPACITY] = {};
  UErrorCode tst = U_ZERO_ERROR;
  uloc_toLanguageTag(loc, bcp47, sizeof(bcp47) - 1, true, &tst);
  *canonical = U_SUCCESS(tst) ? bcp47 : tag;
  return coll;
}

}  // namespace

// ---- Free functions --------------------------------------------------------

Status ValidateUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len = 0;
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4, cp = c & 0x07;
    }
    bool ok = len > 0 && i + len <= n;
    for (int k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    ok = ok && !(len == 3 && cp < 0x800) && !(len == 4 && cp < 0x10000) &&
         !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
    if (!ok) {
      return Status::TypeError("invalid UTF-8 at byte " + std::to_string(i));
    }
    i += len;
  }
  return Status::OK();
}

std::string IcuVersion() {
  UVersionInfo v;
  u_getVersion(v);
  return VersionString(v);
}

bool LikePrefix(std::string_view pattern, std::optional<char32_t> escape,
                std::string* prefix) {
  prefix->clear();
  std::vector<LikeToken> tokens;
  const bool valid = ParseLike(pattern, escape, &tokens);
  size_t i = 0;
  if (i < tokens.size() && tokens[i].kind == LikeToken::kLiteral) {
    *prefix = tokens[i++].literal;
  }
  return valid && i + 1 == tokens.size() && tokens[i].kind == LikeToken::kAny;
}

// ---- Collation -------------------------------------------------------------

Collation::Collation(Kind kind, std::string name, UCollator* collator)
    : kind_(kind), name_(std::move(name)), collator_(collator) {}

const Collation* Collation::Binary() {
  static const Collation* binary = Get("binary").value();
  return binary;
}

Result<const Collation*> Collation::Get(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (lower.empty()) lower = "binary";

  // Instances are never deleted: callers keep raw pointers for the life of
  // the process, and nothing ICU-related runs in static destructors.
  static std::mutex mu;
  static auto* by_name = new std::map<std::string, const Collation*>();
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = by_name->find(lower); it != by_name->end()) return it->second;

  const Collation* made = nullptr;
  if (lower == "binary") {
    made = new Collation(Kind::kBinary, "binary", nullptr);
  } else if (lower == "nocase" || lower == "search") {
    if (!GetNormalizers().ok) {
      return Status::InvalidArgument("collation \"" + std::string(name) +
                                     "\": ICU normalization data is missing");
    }
    made = new Collation(lower == "nocase" ? Kind::kNocase : Kind::kSearch,
                         lower, nullptr);
  } else if (lower.rfind("icu:", 0) == 0) {
    std::string canonical;
    LQ_ASSIGN_OR_RETURN(UCollator * coll,
                        OpenIcu(name, lower.substr(4), &canonical));
    canonical = "icu:" + canonical;
    if (auto it = by_name->find(canonical); it != by_name->end()) {
      ucol_close(coll);  // e.g. "icu:iw" after "icu:he"
      made = it->second;
    } else {
      made = new Collation(Kind::kIcu, canonical, coll);
      (*by_name)[canonical] = made;
    }
  } else {
    return Status::InvalidArgument(
        "unknown collation \"" + std::string(name) +
        "\": expected binary, nocase, search or icu:<locale>");
  }
  (*by_name)[lower] = made;
  return made;
}

void Collation::Fold(std::string_view utf8, std::string* out) const {
  out->clear();
  if (IsAscii(utf8)) {  // NFKC_Casefold of ASCII is ASCII lower-casing.
    out->assign(utf8);
    for (char& c : *out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return;
  }
  const Normalizers& norm = GetNormalizers();
  UErrorCode st = U_ZERO_ERROR;
  if (kind_ == Kind::kNocase) {
    icu::StringByteSink<std::string> sink(out);
    norm.nfkc_cf->normalizeUTF8(
        0, icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())),
        sink, nullptr, st);
    return;
  }
  // search: fold first, so that compatibility decompositions which bring in
  // marks (U+1FED -> " \u0308\u0300") lose them too; then decompose, drop the
  // marks, and fold again to recompose.
  const icu::UnicodeString decomposed =
      norm.nfd->normalize(norm.nfkc_cf->normalize(ToUnicode(utf8), st), st);
  icu::UnicodeString bare;
  for (int32_t i = 0; i < decomposed.length();) {
    const UChar32 c = decomposed.char32At(i);
    i += U16_LENGTH(c);
    const int8_t type = u_charType(c);
    if (type != U_NON_SPACING_MARK && type != U_ENCLOSING_MARK) bare.append(c);
  }
  norm.nfkc_cf->normalize(bare, st).toUTF8String(*out);
}

void Collation::SortKey(std::string_view utf8, std::string* out) const {
  switch (kind_) {
    case Kind::kBinary:
      out->assign(utf8);
      return;
    case Kind::kNocase:
    case Kind::kSearch:
      Fold(utf8, out);
      return;
    case Kind::kIcu: {
      const icu::UnicodeString u = ToUnicode(utf8);
      IcuSortKey(collator_, u.getBuffer(), u.length(), out);
      return;
    }
  }
}

int Collation::Compare(std::string_view a, std::string_view b) const {
  switch (kind_) {
    case Kind::kBinary:
      return a.compare(b);
    case Kind::kNocase:
    case Kind::kSearch: {
      std::string ka, kb;
      Fold(a, &ka);
      Fold(b, &kb);
      return ka.compare(kb);
    }
    case Kind::kIcu: {
      UErrorCode st = U_ZERO_ERROR;
      return ucol_strcollUTF8(collator_, a.data(),
                              static_cast<int32_t>(a.size()), b.data(),
                              static_cast<int32_t>(b.size()), &st);
    }
  }
  return 0;
}

void Collation::PrefixBounds(std::string_view prefix, std::string* lo,
                             std::string* hi) const {
  if (kind_ == Kind::kIcu) {
    std::string key;
    const icu::UnicodeString u = ToUnicode(prefix);
    IcuSortKey(collator_, u.getBuffer(), u.length(), &key);
    lo->clear();
    // ucol_getBound assumes at least one primary byte (it starts looking for
    // the level separator at key[1]); a prefix of ignorables bounds nothing.
    if (!PrimaryPart(key).empty()) {
      lo->resize(key.size() + 1);
      UErrorCode st = U_ZERO_ERROR;
      const int32_t n = ucol_getBound(
          reinterpret_cast<const uint8_t*>(key.c_str()), -1, UCOL_BOUND_LOWER,
          1, reinterpret_cast<uint8_t*>(lo->data()),
          static_cast<int32_t>(lo->size()), &st);
      lo->resize(U_SUCCESS(st) && n > 0 ? n - 1 : 0);  // drop the 0x00
    }
  } else {
    SortKey(prefix, lo);
  }
  // Every key that starts with *lo sorts before its successor. For icu:* this
  // replaces UCOL_BOUND_UPPER_LONG (lo + FF FF), which a key continuing with
  // FF FF 01 ... (text "abc\uFFFF" for prefix "abc") would exceed.
  *hi = Successor(*lo);
}

bool Collation::Like(std::string_view text, std::string_view pattern,
                     std::optional<char32_t> escape) const {
  if (kind_ == Kind::kIcu) return IcuLike(text, pattern, escape);
  // The pattern last compiled on this thread: a query matches one pattern
  // against every row.
  struct Compiled {
    const Collation* collation = nullptr;
    std::string pattern;
    std::optional<char32_t> escape;
    bool valid = false;
    GlobPattern glob;
    // The glob is literal bytes then only '%': a match is a text whose
    // (folded) bytes start with `prefix`.
    bool prefix_only = false;
    std::string prefix;
  };
  thread_local Compiled last;
  thread_local std::string folded;
  if (last.collation != this || last.pattern != pattern ||
      last.escape != escape) {
    last.collation = nullptr;  // set once the pattern is compiled
    last.glob.clear();
    std::vector<LikeToken> tokens;
    last.valid = ParseLike(pattern, escape, &tokens);
    for (const LikeToken& tok : tokens) {
      if (tok.kind != LikeToken::kLiteral) {
        last.glob.push_back(tok.kind == LikeToken::kAny ? kGlobAny : kGlobOne);
        continue;
      }
      std::string_view literal = tok.literal;
      if (kind_ != Kind::kBinary) {
        Fold(tok.literal, &folded);
        literal = folded;
      }
      for (char c : literal) last.glob.push_back(static_cast<unsigned char>(c));
    }
    size_t literal = 0;
    while (literal < last.glob.size() && last.glob[literal] >= 0) ++literal;
    last.prefix_only = literal < last.glob.size();
    for (size_t i = literal; i < last.glob.size(); ++i) {
      last.prefix_only = last.prefix_only && last.glob[i] == kGlobAny;
    }
    last.prefix.clear();
    for (size_t i = 0; i < literal; ++i) {
      last.prefix.push_back(static_cast<char>(last.glob[i]));
    }
    last.pattern.assign(pattern);
    last.escape = escape;
    last.collation = this;
  }
  if (!last.valid) return false;
  if (last.prefix_only) {
    // A prefix (the most common pattern) needs no glob; and ASCII text,
    // whose fold is its lower case byte for byte, needs no folded copy.
    // (Other text folds as a whole: a mark after the prefix may combine
    // with its last letter.)
    const std::string& p = last.prefix;
    if (kind_ == Kind::kBinary) return text.starts_with(p);
    if (IsAscii(text)) {
      if (text.size() < p.size()) return false;
      for (size_t i = 0; i < p.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != p[i]) return false;
      }
      return true;
    }
  }
  if (kind_ == Kind::kBinary) return GlobMatch(text, last.glob);
  Fold(text, &folded);
  return GlobMatch(folded, last.glob);
}

// Runs the pattern over the NFC text as a set of reachable UTF-16 offsets,
// token by token. A literal run may start and end only at a "cut": an offset
// where the collation element iterator stops between collation elements (not
// inside a contraction such as Czech "ch") and the next character does not
// combine with the previous one (not before a combining mark). This keeps
// LIKE 'p%' inside the key range of PrefixBounds(p): the text's primary
// weights then begin with those of the matched substring, which equal p's.
bool Collation::IcuLike(std::string_view text, std::string_view pattern,
                        std::optional<char32_t> escape) const {
  std::vector<LikeToken> tokens;
  if (!ParseLike(pattern, escape, &tokens)) return false;
  const Normalizers& norm = GetNormalizers();
  UErrorCode st = U_ZERO_ERROR;
  const icu::UnicodeString t = norm.nfc->normalize(ToUnicode(text), st);
  const UChar* buf = t.getBuffer();
  const int32_t n = t.length();

  std::vector<char> cut(n + 1, 0);
  UCollationElements* elements = ucol_openElements(collator_, buf, n, &st);
  while (U_SUCCESS(st) && ucol_next(elements, &st) != UCOL_NULLORDER) {
    const int32_t offset = ucol_getOffset(elements);
    if (offset > 0 && offset < n) cut[offset] = 1;
  }
  ucol_closeElements(elements);
  for (int32_t i = 1; i < n; ++i) {
    if (cut[i] &&
        (U16_IS_TRAIL(buf[i]) || !norm.nfc->hasBoundaryBefore(t.char32At(i)))) {
      cut[i] = 0;
    }
  }
  cut[0] = cut[n] = 1;
  std::vector<int32_t> cuts;  // the offsets that are cuts, in order
  for (int32_t i = 0; i <= n; ++i) {
    if (cut[i]) cuts.push_back(i);
  }

  std::vector<char> reach(n + 1, 0), next(n + 1, 0);
  reach[0] = 1;
  std::string key, literal_primary;
  for (const LikeToken& tok : tokens) {
    std::fill(next.begin(), next.end(), 0);
    if (tok.kind == LikeToken::kAny) {
      auto first = std::find(reach.begin(), reach.end(), 1);
      std::fill(next.begin() + (first - reach.begin()), next.end(), 1);
    } else if (tok.kind == LikeToken::kOne) {
      for (int32_t i = 0; i < n; ++i) {
        if (reach[i]) next[i + U16_LENGTH(t.char32At(i))] = 1;
      }
    } else {
      const icu::UnicodeString lit = ToUnicode(tok.literal);
      IcuSortKey(collator_, lit.getBuffer(), lit.length(), &literal_primary);
      literal_primary.resize(PrimaryPart(literal_primary).size());
      // The primary weights of [i, cuts[b]) only grow with b (longer
      // substrings append weights), so they equal the literal's over one
      // run of cuts: from the first whose weights are at least as long,
      // found by galloping then bisecting (O(m log m) for a literal of m
      // characters, not the O(m^2) of trying each end), while they stay
      // equal. A probe whose weights and the literal's differ before the
      // shorter one ends shows that none can match from i. Each end in
      // the run matches when the collator finds the substring equal to
      // the literal.
      for (size_t a = 0; a < cuts.size(); ++a) {
        const int32_t i = cuts[a];
        if (!reach[i]) continue;
        auto primary_of = [&](size_t b) {
          IcuSortKey(collator_, buf + i, cuts[b] - i, &key);
          return PrimaryPart(key);
        };
        // 0: shorter than the literal's and its start; 1: at least as long
        // and starting with it; -1: neither (no match from i).
        auto probe = [&](size_t b) {
          const std::string_view p = primary_of(b);
          const std::string_view l = literal_primary;
          if (p.size() < l.size()) return l.substr(0, p.size()) == p ? 0 : -1;
          return p.substr(0, l.size()) == l ? 1 : -1;
        };
        size_t lo = a, hi = a;  // weights at lo shorter, at hi not
        int found = probe(a);
        for (size_t step = 1; found == 0 && hi + 1 < cuts.size(); step *= 2) {
          lo = hi;
          hi = std::min(a + step, cuts.size() - 1);
          found = probe(hi);
        }
        if (found != 1) continue;  // no match, or the text ends first
        while (hi - lo > 1) {
          const size_t mid = lo + (hi - lo) / 2;
          const int at = probe(mid);
          if (at < 0) break;  // cannot happen while the weights only grow
          (at == 1 ? hi : lo) = mid;
        }
        for (size_t b = hi; b < cuts.size(); ++b) {
          if (primary_of(b) != literal_primary) break;
          if (ucol_strcoll(collator_, buf + i, cuts[b] - i, lit.getBuffer(),
                           lit.length()) == UCOL_EQUAL) {
            next[cuts[b]] = 1;
          }
        }
      }
    }
    reach.swap(next);
    if (std::find(reach.begin(), reach.end(), 1) == reach.end()) return false;
  }
  return reach[n] != 0;
}

std::string Collation::Version() const {
  switch (kind_) {
    case Kind::kBinary:
      return "levelql-binary-1";
    case Kind::kNocase:
    case Kind::kSearch: {
      UVersionInfo v;
      u_getUnicodeVersion(v);
      return std::string(kind_ == Kind::kNocase ? "levelql-nocase-1"
                                                : "levelql-search-1") +
             " unicode-" + VersionString(v);
    }
    case Kind::kIcu: {
      UVersionInfo v;
      ucol_getVersion(collator_, v);
      return "icu-" + IcuVersion() + " collator-" + VersionString(v);
    }
  }
  return "";
}

}  // namespace levelql
