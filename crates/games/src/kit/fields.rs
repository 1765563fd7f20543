//! Splitting a position string into its space-separated fields, with one error text for
//! every game.

/// The `N` fields of `text`, separated by single spaces; `names` names them for the error.
/// A wrong number of fields (two spaces in a row make an empty one, so they count) is
/// refused with the expected and found counts, an empty field with its number and name.
pub fn fields<'a, const N: usize>(text: &'a str, names: [&str; N]) -> Result<[&'a str; N], String> {
    let parts: Vec<&str> = text.split(' ').collect();
    let found = parts.len();
    let Ok(fields) = <[&str; N]>::try_from(parts) else {
        return Err(format!(
            "expected {N} fields separated by single spaces ({}), found {found}",
            names.join(", ")
        ));
    };
    if let Some(i) = fields.iter().position(|f| f.is_empty()) {
        return Err(format!("field {} ({}) is empty", i + 1, names[i]));
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::fields;

    const NAMES: [&str; 3] = ["board", "side", "counter"];

    #[test]
    fn three_fields_split_on_single_spaces() {
        assert_eq!(fields("a/b w 0", NAMES), Ok(["a/b", "w", "0"]));
    }

    #[test]
    fn a_wrong_count_or_an_empty_field_is_named() {
        let count = "expected 3 fields separated by single spaces (board, side, counter)";
        assert_eq!(fields("a w", NAMES), Err(format!("{count}, found 2")));
        assert_eq!(fields("a  w 0", NAMES), Err(format!("{count}, found 4")));
        assert_eq!(fields("a w 0 ", NAMES), Err(format!("{count}, found 4")));
        assert_eq!(
            fields(" w 0", NAMES),
            Err("field 1 (board) is empty".into())
        );
        assert_eq!(fields("", NAMES), Err(format!("{count}, found 1")));
    }
}
