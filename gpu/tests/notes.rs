//! Keeps the citations of `docs/RDNA3-NOTES.md` honest. Code comments, test documentation
//! and messages cite a rule by the notes' name, a comma and a section heading in double
//! quotes (several headings may follow, joined by `,` or `and`). Every `.rs` and `.md` file
//! of the repository is scanned, and a cited heading that is not a `## ` heading of the
//! notes fails the test, naming the file and line. The notes' own links to their sections
//! (`](#anchor)`, and `RDNA3-NOTES.md#anchor` anywhere) must resolve too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The name citations use (spelt in two parts so that this file cites nothing itself).
const NOTES: &str = concat!("RDNA3", "-NOTES");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the gpu crate lies in the repository root").to_path_buf()
}

fn notes_text() -> String {
    let path = root().join("docs").join(format!("{NOTES}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    // ok: a test's failure message
}

/// The `## ` headings of a Markdown text, outside fenced code blocks.
fn headings(md: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if let (false, Some(h)) = (fenced, line.strip_prefix("## ")) {
            out.push(h.trim().to_string());
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Skips spaces, and line breaks followed by a comment marker (`///`, `//!`, `//`, `*`),
/// so that a citation may run over comment lines. Returns the new position.
fn skip_gap(s: &str, mut i: usize) -> usize {
    loop {
        let rest = &s[i..];
        let t = rest.trim_start_matches([' ', '\t']);
        i += rest.len() - t.len();
        let Some(after) = t.strip_prefix('\n') else { return i };
        let body = after.trim_start();
        let body = ["///", "//!", "//", "*"].iter().find_map(|m| body.strip_prefix(m)).unwrap_or(body);
        i = s.len() - body.len();
    }
}

/// Reads a quoted heading starting at `i` (a `"`, or `\"` inside a Rust string literal).
/// Returns the heading with its line breaks and comment markers folded into single spaces,
/// and the position after the closing quote; `None` if `i` is not at a quote.
fn quoted(s: &str, i: usize) -> Option<Result<(String, usize), String>> {
    let (escaped, start) = if s[i..].starts_with("\\\"") {
        (true, i + 2)
    } else if s[i..].starts_with('"') {
        (false, i + 1)
    } else {
        return None;
    };
    let close = if escaped { "\\\"" } else { "\"" };
    let Some(len) = s[start..].find(close).filter(|&n| n <= 300) else {
        return Some(Err(format!("no closing quote within 300 bytes: {:?}", &s[i..(i + 60).min(s.len())])));
    };
    let raw = &s[start..start + len];
    let mut text = String::new();
    for (k, line) in raw.split('\n').enumerate() {
        let mut line = line.trim();
        if k > 0 {
            line = ["///", "//!", "//", "*"].iter().find_map(|m| line.strip_prefix(m)).unwrap_or(line).trim();
            text.push(' ');
        }
        text.push_str(line);
    }
    Some(Ok((text, start + len + close.len())))
}

/// The citations in `s`: (line number, cited heading), or (line number, why it could not
/// be read).
fn citations(s: &str) -> Vec<(usize, Result<String, String>)> {
    let mut out = Vec::new();
    let prefix = format!("{NOTES},");
    let mut from = 0;
    while let Some(k) = s[from..].find(&prefix) {
        let at = from + k;
        from = at + prefix.len();
        let line = s[..at].matches('\n').count() + 1;
        let mut i = skip_gap(s, from);
        loop {
            match quoted(s, i) {
                None => break,
                Some(Err(why)) => {
                    out.push((line, Err(why)));
                    break;
                }
                Some(Ok((heading, end))) => {
                    out.push((line, Ok(heading)));
                    // Another heading may follow: `, "..."` or `and "..."`.
                    let j = skip_gap(s, end);
                    let next = if let Some(r) = s[j..].strip_prefix(',') {
                        s.len() - r.len()
                    } else if let Some(r) = s[j..].strip_prefix("and ") {
                        s.len() - r.len()
                    } else {
                        break;
                    };
                    let next = skip_gap(s, next);
                    if quoted(s, next).is_none() {
                        break;
                    }
                    i = next;
                }
            }
        }
    }
    out
}

/// The `.rs` and `.md` files under `dir`, skipping build outputs and hidden directories.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target") {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") || name.ends_with(".md") {
            out.push(path);
        }
    }
}

#[test]
fn notes_headings_are_unique() {
    let hs = headings(&notes_text());
    assert!(hs.len() >= 40, "only {} headings in the notes", hs.len());
    let mut seen = HashSet::new();
    for h in &hs {
        assert!(!h.is_empty(), "an empty heading");
        assert!(!h.contains('"'), "heading {h:?} contains a double quote, which citations cannot hold");
        assert!(seen.insert(anchor(h)), "two headings have the anchor of {h:?}");
    }
}

#[test]
fn every_cited_heading_exists() {
    let known: HashSet<String> = headings(&notes_text()).into_iter().collect();
    let mut files = Vec::new();
    sources(&root(), &mut files);
    files.sort();
    assert!(
        files.iter().filter(|f| f.extension().is_some_and(|e| e == "rs")).count() > 50,
        "the scan found too few files"
    );
    let mut bad = Vec::new();
    let mut count = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (line, c) in citations(&text) {
            count += 1;
            let rel = f.strip_prefix(root()).unwrap_or(f).display();
            match c {
                Ok(h) if known.contains(&h) => {}
                Ok(h) => bad.push(format!("{rel}:{line}: {h:?} is not a heading of docs/{NOTES}.md")),
                Err(why) => bad.push(format!("{rel}:{line}: unreadable citation: {why}")),
            }
        }
    }
    assert!(bad.is_empty(), "{} of {count} citations name no section of the notes:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn links_to_sections_of_the_notes_resolve() {
    let anchors: HashSet<String> = headings(&notes_text()).iter().map(|h| anchor(h)).collect();
    let mut files = Vec::new();
    sources(&root(), &mut files);
    let mut bad = Vec::new();
    let own = format!("{NOTES}.md");
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "md")) {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let is_notes = f.file_name().is_some_and(|n| n == own.as_str());
        let marker = format!("{own}#");
        let mut links: Vec<usize> = text.match_indices(&marker).map(|(i, m)| i + m.len()).collect();
        if is_notes {
            links.extend(text.match_indices("](#").map(|(i, m)| i + m.len()));
        }
        for i in links {
            let end = text[i..].find([')', ' ', '\n', '`']).map_or(text.len(), |n| i + n);
            let a = &text[i..end];
            if !anchors.contains(a) {
                let line = text[..i].matches('\n').count() + 1;
                bad.push(format!("{}:{line}: #{a}", f.strip_prefix(root()).unwrap_or(f).display()));
            }
        }
    }
    assert!(bad.is_empty(), "links to sections that do not exist:\n{}", bad.join("\n"));
}

#[test]
fn citations_are_read_in_every_form() {
    let n = NOTES;
    let text = format!(
        "// plain ({n}, \"Traps\").\n\
         /// split over lines ({n}, \"VGPR out-of-range\n    /// behaviour\"): more.\n\
         const RULE: &str = \"{n}, \\\"Instruction clauses\\\" (clauses)\";\n\
         //! chained: {n}, \"SGPR alignment\" and \"SGPR out-of-range behaviour\".\n\
         //! listed: {n}, \"A\", \"B\" and \"C\", then prose.\n\
         //! a quote after a colon is not a heading: {n}, \"Traps\": \"text\".\n\
         //! not a citation: docs/{n}.md, and {n} alone.\n\
         //! broken: {n}, \"never closed\n"
    );
    let got: Vec<_> =
        citations(&text).into_iter().map(|(l, c)| (l, c.unwrap_or_else(|e| format!("ERR {e}")))).collect();
    let want: Vec<(usize, String)> = [
        (1, "Traps"),
        (2, "VGPR out-of-range behaviour"),
        (4, "Instruction clauses"),
        (5, "SGPR alignment"),
        (5, "SGPR out-of-range behaviour"),
        (6, "A"),
        (6, "B"),
        (6, "C"),
        (7, "Traps"),
    ]
    .into_iter()
    .map(|(l, h)| (l, h.to_string()))
    .collect();
    assert_eq!(got[..want.len()], want[..]);
    assert_eq!(got.len(), want.len() + 1, "{got:?}");
    assert!(got[want.len()].1.starts_with("ERR no closing quote"), "{got:?}");
    assert_eq!(anchor("Memory counters and s_waitcnt"), "memory-counters-and-s_waitcnt");
    assert_eq!(anchor("Wave32 and wave64"), "wave32-and-wave64");
}
