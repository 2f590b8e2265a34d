//! Reading an import file (CSV or XLSX) row by row, checking each row as the customer form does,
//! and writing the valid ones to a staging file in PostgreSQL's COPY text format. Runs in a
//! blocking task; memory stays flat whatever the file's size (the errors listed are capped; an
//! XLSX's shared strings are held, as the format requires).

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

use calamine::{DataRef, Reader, Xlsx};

use super::model::{ConsentChannel, RowError, MAX_LISTED_ERRORS};
use crate::domain::{self, MAX_TEXT};
use crate::error::{AppError, AppResult, Field, Lang, Msg, Problem};

/// The most opening points one customer may get: a posting's bound (docs/points.md, "Bounds").
const MAX_OPENING_POINTS: i64 = 1_000_000_000_000_000;

/// A column the import knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Document,
    Name,
    Email,
    Phone,
    Address,
    Birthdate,
    Points,
    Consent,
}

impl Column {
    /// The column a header names, in Spanish or English, without regard to case, accents,
    /// spaces, hyphens or underscores.
    fn from_header(header: &str) -> Option<Column> {
        let key: String = header
            .trim()
            .trim_start_matches('\u{feff}')
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .map(|c| match c {
                'á' => 'a',
                'é' => 'e',
                'í' => 'i',
                'ó' => 'o',
                'ú' => 'u',
                other => other,
            })
            .collect();
        Some(match key.as_str() {
            "documento" | "document" | "cedula" => Column::Document,
            "nombre" | "name" => Column::Name,
            "correo" | "correoelectronico" | "email" => Column::Email,
            "telefono" | "phone" => Column::Phone,
            "direccion" | "address" => Column::Address,
            "fechanacimiento" | "fechadenacimiento" | "birthdate" => Column::Birthdate,
            "puntos" | "points" | "puntosiniciales" | "openingpoints" | "saldoinicial" => Column::Points,
            "consentimiento" | "consent" => Column::Consent,
            _ => return None,
        })
    }

    fn field(self) -> Field {
        match self {
            Column::Document => Field::Document,
            Column::Name => Field::Name,
            Column::Email => Field::Email,
            Column::Phone => Field::Phone,
            Column::Address => Field::Address,
            Column::Birthdate => Field::Birthdate,
            Column::Points => Field::OpeningPoints,
            Column::Consent => Field::Consent,
        }
    }
}

/// Where each known column is in the file's rows, and its header as written.
struct Header {
    /// For each of [`COLUMNS`], its position and header text.
    positions: [Option<(usize, String)>; 8],
}

impl Header {
    fn parse(cells: &[String]) -> AppResult<Header> {
        let mut positions: [Option<(usize, String)>; 8] = Default::default();
        for (i, cell) in cells.iter().enumerate() {
            let text = cell.trim().trim_start_matches('\u{feff}').trim();
            if text.is_empty() {
                continue;
            }
            let column = Column::from_header(text)
                .ok_or_else(|| AppError::bad_request(Msg::ImportUnknownColumn.with("column", text)))?;
            let slot = &mut positions[column as usize];
            if slot.is_some() {
                return Err(AppError::bad_request(Msg::ImportRepeatedColumn.with("column", text)));
            }
            *slot = Some((i, text.to_owned()));
        }
        if positions[Column::Document as usize].is_none() || positions[Column::Name as usize].is_none() {
            return Err(AppError::bad_request(Msg::ImportMissingColumns));
        }
        Ok(Header { positions })
    }

    fn value<'a>(&self, column: Column, cells: &'a [String]) -> Option<&'a str> {
        self.positions[column as usize].as_ref().and_then(|(i, _)| cells.get(*i)).map(String::as_str)
    }

    /// The column's name for an error: its header as written, or the field's name in `lang`.
    fn name(&self, column: Column, lang: Lang) -> String {
        match &self.positions[column as usize] {
            Some((_, text)) => text.clone(),
            None => column.field().template(lang).to_owned(),
        }
    }
}

/// What reading a file found.
pub struct Parsed {
    /// Data rows read (blank ones not counted).
    pub rows: u64,
    /// Every error found, in all.
    pub error_count: u64,
    /// The first errors, by line.
    pub errors: Vec<RowError>,
    /// The valid rows in COPY text format: line, document, name, email, phone, address,
    /// birthdate, points, consent.
    pub staging: File,
}

/// Reads `file` (an XLSX when it starts as a zip archive does, else a CSV) and stages its valid
/// rows. A file whose header is unreadable or wrong is refused whole (400); a row's problems are
/// listed with its line and column, in `lang`.
pub fn parse(mut file: File, consent_channel: Option<ConsentChannel>, lang: Lang) -> AppResult<Parsed> {
    file.seek(SeekFrom::Start(0)).map_err(AppError::internal)?;
    let mut magic = [0u8; 4];
    let is_xlsx = file.read_exact(&mut magic).is_ok() && magic == *b"PK\x03\x04";
    file.seek(SeekFrom::Start(0)).map_err(AppError::internal)?;
    let staging = tempfile::tempfile().map_err(AppError::internal)?;
    let mut stager = Stager {
        header: None,
        consent_channel,
        lang,
        out: BufWriter::with_capacity(256 * 1024, staging),
        rows: 0,
        error_count: 0,
        errors: Vec::new(),
    };
    if is_xlsx {
        read_xlsx(file, &mut stager)?;
    } else {
        read_csv(file, &mut stager)?;
    }
    if stager.header.is_none() {
        return Err(AppError::bad_request(Msg::ImportNoHeader));
    }
    let Stager { out, rows, error_count, mut errors, .. } = stager;
    let mut staging = out.into_inner().map_err(|err| AppError::internal(err.into_error()))?;
    staging.seek(SeekFrom::Start(0)).map_err(AppError::internal)?;
    errors.sort_by_key(|e| e.line);
    Ok(Parsed { rows, error_count, errors, staging })
}

/// The row being checked and the staging file being written.
struct Stager {
    header: Option<Header>,
    consent_channel: Option<ConsentChannel>,
    lang: Lang,
    out: BufWriter<File>,
    rows: u64,
    error_count: u64,
    errors: Vec<RowError>,
}

impl Stager {
    /// Takes one row of the file: the header first, then data rows. `cells` is `Err` for a row
    /// that could not be decoded.
    fn row(&mut self, line: u64, cells: Result<&[String], Msg>) -> AppResult<()> {
        let Some(header) = &self.header else {
            let cells = cells.map_err(|_| AppError::bad_request(Msg::ImportUnreadable))?;
            if !cells.iter().all(|c| c.trim().is_empty()) {
                self.header = Some(Header::parse(cells)?);
            }
            return Ok(());
        };
        let outcome = match cells {
            Ok(cells) if cells.iter().all(|c| c.trim().is_empty()) => return Ok(()),
            Ok(cells) => check_row(header, line, cells, self.consent_channel, self.lang),
            Err(msg) => Err(vec![(header.name(Column::Document, self.lang), msg.into())]),
        };
        self.rows += 1;
        match outcome {
            Ok(record) => {
                self.out.write_all(record.as_bytes()).map_err(AppError::internal)?;
            }
            Err(problems) => {
                for (column, problem) in problems {
                    self.error(line, column, problem);
                }
            }
        }
        Ok(())
    }

    fn error(&mut self, line: u64, column: String, problem: Problem) {
        self.error_count += 1;
        if self.errors.len() < MAX_LISTED_ERRORS {
            self.errors.push(RowError { line, column, message: problem.render(self.lang) });
        }
    }
}

/// Absent values in the staging record; no checked text holds a NUL.
const NULL: &str = "\0";

/// A data row checked as the customer form checks it: its staging record (COPY text format, one
/// line), or its problems with the columns they are about.
fn check_row(
    header: &Header,
    line: u64,
    cells: &[String],
    consent_channel: Option<ConsentChannel>,
    lang: Lang,
) -> Result<String, Vec<(String, Problem)>> {
    let mut problems: Vec<(Column, Problem)> = Vec::new();
    let mut check = |column: Column, result: Result<String, AppError>| match result {
        Ok(value) => value,
        Err(err) => {
            problems.push((column, err.problem()));
            String::new()
        }
    };
    let value = |column| header.value(column, cells);
    let text = |v: Option<String>| v.unwrap_or_else(|| NULL.into());
    let document = check(Column::Document, domain::document(value(Column::Document)));
    let name = check(Column::Name, domain::required_text(Field::Name, value(Column::Name), MAX_TEXT));
    let email = check(Column::Email, domain::optional_email(value(Column::Email)).map(text));
    let phone = check(Column::Phone, domain::optional_text(Field::Phone, value(Column::Phone), 40).map(text));
    let address =
        check(Column::Address, domain::optional_text(Field::Address, value(Column::Address), MAX_TEXT).map(text));
    let birthdate = check(
        Column::Birthdate,
        domain::optional_birthdate(value(Column::Birthdate)).map(|d| d.map(|d| d.to_string())).map(text),
    );
    let points = check(Column::Points, opening_points(value(Column::Points)).map(|p| p.to_string()));
    let consent = match ConsentChannel::parse(value(Column::Consent).unwrap_or_default()) {
        Ok(Some(channel)) => Some(channel),
        Ok(None) => consent_channel,
        Err(msg) => {
            problems.push((Column::Consent, msg.into()));
            Some(ConsentChannel::Import)
        }
    };
    let Some(consent) = consent else {
        problems.push((Column::Consent, Msg::ImportConsentMissing.into()));
        return Err(problems.into_iter().map(|(c, p)| (header.name(c, lang), p)).collect());
    };
    if !problems.is_empty() {
        return Err(problems.into_iter().map(|(c, p)| (header.name(c, lang), p)).collect());
    }
    let mut record = String::with_capacity(128);
    for field in [&line.to_string(), &document, &name, &email, &phone, &address, &birthdate, &points] {
        if field == NULL {
            record.push_str("\\N");
        } else {
            escape(&mut record, field);
        }
        record.push('\t');
    }
    record.push_str(consent.as_str());
    record.push('\n');
    Ok(record)
}

/// A value in COPY's text format.
fn escape(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// Opening points: empty is 0; else a whole number of 0 or more, at most a posting's bound.
fn opening_points(value: Option<&str>) -> Result<i64, AppError> {
    let value = value.map(str::trim).unwrap_or_default();
    if value.is_empty() {
        return Ok(0);
    }
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AppError::bad_request(Msg::FieldWholeNumber.field(Field::OpeningPoints)));
    }
    match value.parse::<i64>() {
        Ok(points) if points <= MAX_OPENING_POINTS => Ok(points),
        _ => Err(AppError::bad_request(Msg::FieldTooLarge.field(Field::OpeningPoints).with("max", MAX_OPENING_POINTS))),
    }
}

/// A CSV in UTF-8 (a byte-order mark allowed), separated by `;` or `,`: whichever the header
/// line has more of.
fn read_csv(mut file: File, stager: &mut Stager) -> AppResult<()> {
    let mut start = vec![0u8; 64 * 1024];
    let mut len = 0;
    while len < start.len() {
        match file.read(&mut start[len..]).map_err(AppError::internal)? {
            0 => break,
            n => len += n,
        }
    }
    let first_line = start[..len].split(|b| *b == b'\n').next().unwrap_or_default();
    let count = |sep| first_line.iter().filter(|b| **b == sep).count();
    let delimiter = if count(b';') > count(b',') { b';' } else { b',' };
    file.seek(SeekFrom::Start(0)).map_err(AppError::internal)?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .buffer_capacity(256 * 1024)
        .from_reader(file);
    let mut record = csv::ByteRecord::new();
    let mut cells: Vec<String> = Vec::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => {}
            Err(err) => {
                tracing::debug!(%err, "unreadable CSV");
                return Err(AppError::bad_request(Msg::ImportUnreadable));
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        cells.clear();
        let mut decoded = true;
        for field in record.iter() {
            match std::str::from_utf8(field) {
                Ok(text) => cells.push(text.to_owned()),
                Err(_) => decoded = false,
            }
        }
        let row = if decoded { Ok(cells.as_slice()) } else { Err(Msg::ImportRowUnreadable) };
        stager.row(line, row)?;
    }
}

/// The first sheet of an XLSX, cell by cell; dates as `YYYY-MM-DD`.
fn read_xlsx(file: File, stager: &mut Stager) -> AppResult<()> {
    let unreadable = |err: calamine::XlsxError| {
        tracing::debug!(%err, "unreadable XLSX");
        AppError::bad_request(Msg::ImportUnreadable)
    };
    let mut workbook = Xlsx::new(std::io::BufReader::new(file)).map_err(unreadable)?;
    let Some(sheet) = workbook.sheet_names().into_iter().next() else {
        return Err(AppError::bad_request(Msg::ImportNoHeader));
    };
    let mut cells_reader = workbook.worksheet_cells_reader(&sheet).map_err(unreadable)?;
    let mut row: Vec<String> = Vec::new();
    let mut current: Option<u32> = None;
    while let Some(cell) = cells_reader.next_cell().map_err(unreadable)? {
        let (r, c) = cell.get_position();
        if current != Some(r) {
            if let Some(done) = current {
                stager.row(u64::from(done) + 1, Ok(&row))?;
            }
            row.clear();
            current = Some(r);
        }
        let c = c as usize;
        if c >= 64 {
            continue;
        }
        if row.len() <= c {
            row.resize(c + 1, String::new());
        }
        row[c] = cell_text(cell.get_value());
    }
    if let Some(done) = current {
        stager.row(u64::from(done) + 1, Ok(&row))?;
    }
    Ok(())
}

/// A cell as the text a CSV would hold.
fn cell_text(value: &DataRef<'_>) -> String {
    match value {
        DataRef::Int(n) => n.to_string(),
        DataRef::Float(f) if f.fract() == 0.0 && f.abs() < 1e17 => format!("{}", *f as i64),
        DataRef::Float(f) => f.to_string(),
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => (*s).to_owned(),
        DataRef::Bool(b) => b.to_string(),
        DataRef::DateTime(d) => d.as_datetime().map(|d| d.date().to_string()).unwrap_or_else(|| d.as_f64().to_string()),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => format!("#{e}"),
        DataRef::Empty => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_recognised_in_spanish_and_english_without_accents_or_case() {
        assert_eq!(Column::from_header("Teléfono"), Some(Column::Phone));
        assert_eq!(Column::from_header("\u{feff}documento"), Some(Column::Document));
        assert_eq!(Column::from_header("Fecha de nacimiento"), Some(Column::Birthdate));
        assert_eq!(Column::from_header("e-mail"), Some(Column::Email));
        assert_eq!(Column::from_header("POINTS"), Some(Column::Points));
        assert_eq!(Column::from_header("color"), None);
    }

    #[test]
    fn opening_points_are_whole_numbers_within_a_postings_bound() {
        assert_eq!(opening_points(None).unwrap(), 0);
        assert_eq!(opening_points(Some(" 250 ")).unwrap(), 250);
        assert!(opening_points(Some("-5")).is_err());
        assert!(opening_points(Some("1.5")).is_err());
        assert!(opening_points(Some("10000000000000000")).is_err());
    }

    #[test]
    fn copy_text_escapes_backslashes_tabs_and_line_breaks() {
        let mut out = String::new();
        escape(&mut out, "a\\b\tc\nd");
        assert_eq!(out, "a\\\\b\\tc\\nd");
    }
}
