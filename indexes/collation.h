// Collations: how TEXT compares, how index keys are made from it, and what
// LIKE means under it.
//
// A Collation turns UTF-8 text into a sort key whose memcmp order is the
// collation order (index keys hold that key; rows keep the original text), and
// answers LIKE and "which key range can hold matches of LIKE 'prefix%'".
// Instances come from Collation::Get(), which builds each one once and caches
// it for the life of the process; callers borrow the pointer and never delete
// it. A Collation is immutable after construction and every method is const
// and safe to call from many threads at once: ICU collators are only used
// through const C APIs (ucol_getSortKey, ucol_strcollUTF8, ucol_openElements),
// which ICU documents as thread-safe on a shared collator, and Normalizer2
// instances are ICU singletons that are thread-safe.
//
// The collations (names are case-insensitive; "" means binary):
//   binary  Code point order (= UTF-8 byte order). The key is the text itself.
//   nocase  Unicode NFKC_Casefold, compared as code points.
//   search  nocase, then NFD, then combining marks (Mn, Me) dropped, then
//           NFKC_Casefold again (which recomposes).
//   icu:<BCP 47 tag>  The ICU collator for that locale, at the strength the
//           tag asks for ("icu:und-u-ks-level2" is secondary strength: case
//           blind, accent sensitive). The key is the ICU sort key.
//
// What nocase and search fold, and what they do not:
//   - German ß folds to "ss" by case folding: Straße = STRASSE = strasse.
//   - Compatibility characters fold by NFKC: the ligature ﬁ = fi, ① = 1,
//     full-width Ａ = a.
//   - search drops accents: Café = cafe, Ö = o, and NFD input equals NFC.
//   - Ł, Ø, Đ, Æ are base letters, not letter + mark: they do not decompose,
//     so under search Ł != L and Ø != O (they equal ł and ø).
//   - Turkish: dotted İ folds to i + U+0307 (combining dot above), which
//     search strips, so İ = i = I under search (not under nocase). Dotless ı
//     does not case-fold to i: ı != i under nocase and search. Neither uses
//     Turkish-specific folding (I -> ı); use icu:tr for that.
//   - Spacing marks (Mc, e.g. Devanagari vowel signs) are kept by search.
//
// Locale traps under icu:*, and what LIKE does there. A literal run of a LIKE
// pattern matches a substring of the (NFC) text that is collator-equal to it
// and that starts and ends where the collator does not join characters: not
// inside a contraction and not before a combining mark. So:
//   - Czech (icu:cs): "ch" is one letter sorting after "h" (h < ch < i), so
//     "chata" does NOT match 'c%' but matches 'ch%'. The keys of "ch..." words
//     lie after all "h..." words, far outside the key range of 'c%'.
//   - Danish (icu:da): "aa" sorts as å at the end of the alphabet (after z,
//     æ, ø), so "Aarhus" does not match 'a%'. It matches 'å%' only at primary
//     strength (icu:da-u-ks-level1): aa and å differ at the tertiary level.
// Because the icu:* key range is computed at primary strength (it also holds
// "ABC" and "abç" for 'abc%' under a tertiary collator), prefix_bounds_exact()
// is false for icu:* and the engine must re-check every row with Like(). The
// range is always a superset of the matches: a re-check can drop rows, it can
// never bring back rows the range left out.
#ifndef LEVELQL_INDEXES_COLLATION_H_
#define LEVELQL_INDEXES_COLLATION_H_

#include <optional>
#include <string>
#include <string_view>

#include "levelql/status.h"

struct UCollator;  // ICU's collator (unicode/ucol.h); owned by a Collation.

namespace levelql {

// OK when `s` is well-formed UTF-8; otherwise TypeError "invalid UTF-8 at byte
// N" with N the offset of the first byte of the bad sequence. Rejects overlong
// forms, surrogates (U+D800..U+DFFF), code points above U+10FFFF, stray
// continuation bytes and truncated sequences. U+0000 is valid.
Status ValidateUtf8(std::string_view s);

// The ICU library version, e.g. "72.1".
std::string IcuVersion();

// Splits a LIKE pattern at its first unescaped wildcard: sets *prefix to the
// literal text before it (escapes removed) and returns true when the rest of
// the pattern is one or more '%' only, i.e. the pattern means "starts with
// *prefix". Returns false (with *prefix still set) for anything else, and for
// a pattern that ends in a lone escape character, which matches nothing.
// REQUIRES: pattern is valid UTF-8.
bool LikePrefix(std::string_view pattern, std::optional<char32_t> escape,
                std::string* prefix);

class Collation {
 public:
  enum class Kind { kBinary, kNocase, kSearch, kIcu };

  // "binary", "nocase", "search" or "icu:<BCP 47 tag>" ("icu:de", "icu:sv",
  // "icu:und-u-ks-level2"); case-insensitive, "" means binary. Returns
  // InvalidArgument naming the collation for an unknown name, a tag that is
  // not BCP 47, a locale ICU has no collation data for (it would silently fall
  // back to the root order), or collation options ICU rejects. The result
  // lives until the process exits.
  static Result<const Collation*> Get(std::string_view name);
  // Get("binary"): what a comparison uses when no operand carries one.
  static const Collation* Binary();

  Collation(const Collation&) = delete;
  Collation& operator=(const Collation&) = delete;

  // Canonical name: "binary", "nocase", "search", or "icu:" + the canonical
  // BCP 47 tag ICU gives back ("icu:sv", "icu:de-DE", "icu:he" for "icu:iw").
  const std::string& name() const { return name_; }
  Kind kind() const { return kind_; }
  bool is_binary() const { return kind_ == Kind::kBinary; }

  // Replaces *out with bytes whose memcmp order is this collation's order and
  // which are equal exactly when the collation says the texts are equal.
  // binary: the text. nocase/search: the folded text (UTF-8, so it may hold
  // 0x00 when the text does). icu:*: the ICU sort key without its trailing
  // 0x00 (never contains 0x00). REQUIRES: utf8 is valid UTF-8.
  void SortKey(std::string_view utf8, std::string* out) const;

  // <0, 0 or >0; the same answer as comparing the SortKey()s.
  // REQUIRES: a and b are valid UTF-8.
  int Compare(std::string_view a, std::string_view b) const;

  // Replaces *lo and *hi with the key range of LIKE '<prefix>%', where prefix
  // is the literal text with escapes already removed (see LikePrefix): every
  // text s for which Like(s, prefix + "%") is true has lo <= SortKey(s) < hi.
  // An empty *hi means no upper bound (then *lo may be empty too).
  // binary/nocase/search: lo is the folded prefix and hi its successor.
  // icu:*: lo is ucol_getBound(UCOL_BOUND_LOWER) at primary strength, and hi
  // the successor of lo. (UCOL_BOUND_UPPER_LONG would append FF FF to lo, but
  // a text such as "abc\uFFFF" has key bytes lo FF FF ... beyond it.)
  // REQUIRES: prefix is valid UTF-8.
  void PrefixBounds(std::string_view prefix, std::string* lo,
                    std::string* hi) const;

  // True when the PrefixBounds range holds exactly the texts that match
  // prefix + "%", so no re-check is needed: binary, nocase, search.
  bool prefix_bounds_exact() const { return kind_ != Kind::kIcu; }

  // SQL LIKE under this collation. '%' matches any sequence, '_' exactly one
  // code point, and `escape` (when set) makes the next pattern character
  // literal; it takes precedence over '%' and '_'. A pattern ending in a lone
  // escape matches nothing. An empty pattern matches only the empty text.
  //   binary: code point exact and case-sensitive (unlike SQLite's default).
  //   nocase/search: text and each literal run of the pattern are folded as
  //     in SortKey, then matched code point by code point, so '_' is one code
  //     point of the folded text ("Straße" LIKE 'stra__e' under nocase).
  //   icu:*: the text is put in NFC; '_' is one code point of it; a literal
  //     run matches a collator-equal substring that starts and ends on a
  //     boundary the collator does not join across (see the top of the file).
  // REQUIRES: text and pattern are valid UTF-8.
  bool Like(std::string_view text, std::string_view pattern,
            std::optional<char32_t> escape) const;

  // Recorded with each index; an index whose recorded version differs from
  // Version() must be rebuilt. Stored on disk - do not change the formats.
  //   binary:        "levelql-binary-1"
  //   nocase/search: "levelql-nocase-1 unicode-15.0" / "levelql-search-1
  //                  unicode-15.0" (the Unicode version of ICU's data)
  //   icu:*:         "icu-72.1 collator-153.120.42" (ICU version, then
  //                  ucol_getVersion, which covers the UCA version and the
  //                  tailoring)
  std::string Version() const;

 private:
  Collation(Kind kind, std::string name, UCollator* collator);

  // Folds for nocase/search; REQUIRES kind_ is kNocase or kSearch.
  void Fold(std::string_view utf8, std::string* out) const;
  bool IcuLike(std::string_view text, std::string_view pattern,
               std::optional<char32_t> escape) const;

  const Kind kind_;
  const std::string name_;
  UCollator* const collator_;  // icu:* only; owned, never closed (see Get).
};

}  // namespace levelql

#endif  // LEVELQL_INDEXES_COLLATION_H_
