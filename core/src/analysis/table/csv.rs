//! What a whole table's CSV and the streamed rows' CSV both write: the header line, the row
//! numbers counted as text, and how many bytes go out at a time.

use super::Table;

/// How many bytes of CSV rows are put together before they are written out.
pub(crate) const CSV_BLOCK: usize = 1 << 16;

/// The header line of a one-pile table's CSV.
pub(crate) fn csv_header(table: &Table) -> Vec<u8> {
    let n = if table.coins { "coin" } else { "n" };
    // With --by-last, a column for the previous move: empty on the rows of the game's start,
    // then the grid of (n, last) rows.
    let n = if table.by_last.is_some() { format!("{n},last") } else { n.to_string() };
    let mut bytes = match &table.misere {
        Some(_) => format!("{n},outcome,misere_grundy,genus,tame,phi"),
        None => format!("{n},outcome,grundy"),
    }
    .into_bytes();
    if table.remoteness.is_some() {
        bytes.extend_from_slice(b",remoteness");
    }
    bytes.push(b'\n');
    bytes
}

/// The decimal text of a row number, counted up in place: the rows of a table come in order,
/// and adding one to the text costs less than writing each number afresh.
pub(crate) struct RowNumber {
    digits: [u8; 20],
    start: usize,
}

impl Default for RowNumber {
    fn default() -> Self {
        RowNumber { digits: [b'0'; 20], start: 19 }
    }
}

impl RowNumber {
    pub(crate) fn text(&self) -> &[u8] {
        &self.digits[self.start..]
    }

    pub(crate) fn advance(&mut self) {
        for i in (0..20).rev() {
            if self.digits[i] != b'9' {
                self.digits[i] += 1;
                self.start = self.start.min(i);
                return;
            }
            self.digits[i] = b'0';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RowNumber;

    #[test]
    fn row_numbers_count_as_decimal_text() {
        let mut row = RowNumber::default();
        for i in 0..=1_000_100u64 {
            assert_eq!(row.text(), i.to_string().as_bytes());
            row.advance();
        }
    }
}
