//! An open document: its text, where its lines start, and the conversions between the bytes
//! the engine counts and the (line, UTF-16 unit) positions the protocol counts.

use std::path::PathBuf;

use lsp_types::{Position, Range, Url};
use takeaway_core::{load_game, Budget, Failure, Games, Loaded, Source};

/// One open game text.
pub(crate) struct Document {
    pub(crate) uri: Url,
    pub(crate) text: String,
    /// The byte each line starts at.
    line_starts: Vec<usize>,
}

impl Document {
    pub(crate) fn new(uri: Url, text: String) -> Document {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Document { uri, text, line_starts }
    }

    /// The byte a protocol position points at (clamped into the text, onto a character).
    pub(crate) fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line = self.line(start);
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line_end = start + line.len();
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= position.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        line_end
    }

    /// The protocol position of a byte of the text.
    pub(crate) fn position(&self, offset: usize) -> Position {
        let offset = self.text.floor_char_boundary(offset);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let character = self.text[start..offset].chars().map(char::len_utf16).sum::<usize>();
        Position::new(line as u32, character as u32)
    }

    /// The lines of the text, each with the byte it starts at and its `\n`.
    pub(crate) fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.line_starts.iter().map(|&start| (start, self.line(start)))
    }

    /// The line holding byte `offset`, with the byte it starts at (and its `\n`).
    pub(crate) fn line_at(&self, offset: usize) -> (usize, &str) {
        let start = self.line_starts[self.line_starts.partition_point(|&s| s <= offset) - 1];
        (start, self.line(start))
    }

    fn line(&self, start: usize) -> &str {
        let end = self.text[start..].find('\n').map_or(self.text.len(), |i| start + i + 1);
        &self.text[start..end]
    }

    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The file the document is, when it is one.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        self.uri.to_file_path().ok()
    }

    /// The folder a product's games are looked for in.
    pub(crate) fn folder(&self) -> PathBuf {
        self.path().and_then(|p| p.parent().map(PathBuf::from)).unwrap_or_default()
    }

    /// The game files beside the document, by the names a product statement gives them.
    pub(crate) fn neighbours(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.folder())
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".game")).map(str::to_string))
                    .filter(|n| !n.chars().any(char::is_control))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Bytes the engine's offsets are ahead of or behind this text's: the engine drops a
    /// byte-order mark before reading.
    pub(crate) fn engine_shift(&self) -> usize {
        if self.text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        }
    }

    /// The game, loaded as `takeaway check` loads its file: a product's games beside it.
    pub(crate) fn load(&self, budget: &Budget) -> Result<Loaded, Failure> {
        let path = self.path();
        let name = path.as_ref().map_or_else(|| self.uri.to_string(), |p| p.display().to_string());
        let stem = path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().to_string());
        let library = Games { dir: self.folder(), session: Vec::new() };
        load_game(Source::new(name, self.text.as_str()), &stem, &[], &library, budget)
    }
}
