//! The atlas of octal games (`docs/atlas/atlas.csv`, made by `takeaway sweep`), compiled into
//! the server: the page's searchable table of every code of up to four digits.

use std::sync::OnceLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde_json::{json, Value};
use takeaway_core::RowsFormat;

/// The atlas as the repository ships it.
const ATLAS_CSV: &str = include_str!("../../docs/atlas/atlas.csv");

/// The columns the page shows, in its order.
const COLUMNS: &[&str] = &[
    "game",
    "status",
    "preperiod",
    "period",
    "values_needed",
    "values_computed",
    "largest_value",
    "largest_at",
    "rare_values",
    "last_rare",
    "apparent_period",
    "apparent_saltus",
    "same_values_as",
];

/// The atlas as the page reads it: the columns once, then one array a code (made once).
fn body() -> &'static str {
    static BODY: OnceLock<String> = OnceLock::new();
    BODY.get_or_init(|| {
        let rows = takeaway_core::render::read_sweep_rows(ATLAS_CSV, RowsFormat::Csv).unwrap_or_default();
        let rows: Vec<Value> = rows
            .iter()
            .map(|row| {
                let all = serde_json::to_value(row).unwrap_or_default();
                Value::Array(COLUMNS.iter().map(|c| all.get(*c).cloned().unwrap_or(Value::Null)).collect())
            })
            .collect();
        json!({ "columns": COLUMNS, "rows": rows }).to_string()
    })
}

/// `GET /api/atlas`.
pub async fn atlas() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "max-age=3600")], body())
}
