//! Names: judge.toml's own, and the names it gives to problems and languages (folder names
//! and arguments) and to the files of file I/O (plain names in the program's folder).

/// The configuration file's name, looked for from the current folder upwards.
pub const FILE_NAME: &str = "judge.toml";

/// Problem and language names become folder names and command-line arguments.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(format!(
            "`{name}` is not a valid name (use letters, digits, `-` and `_`)"
        ));
    }
    if name.starts_with('-') {
        return Err(format!(
            "`{name}` is not a valid name: it starts with `-`, so every command would take it for an option (hint: start it with a letter or digit)"
        ));
    }
    Ok(())
}

/// A file-I/O name is made inside the program's working folder: a plain file name only.
pub(crate) fn check_file_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\')
        && !name.contains('\0');
    if plain {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a plain file name (hint: write it as the statement does, like `input.txt`)"
        ))
    }
}
