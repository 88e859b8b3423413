//! A request's named parameters, taken one by one so that every complaint names its field:
//! missing, of the wrong type, or not a parameter of the method at all.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Map, Value};

use super::rpc::{Error, INVALID_PARAMS};

/// The parameters not yet taken.
#[derive(Debug)]
pub struct Params {
    map: Map<String, Value>,
}

/// A parameter that is wrong: `-32602`, its name in `data.field`.
pub fn invalid(field: &str, message: impl std::fmt::Display) -> Error {
    let mut error = Error::new(INVALID_PARAMS, format!("`{field}`: {message}"));
    error.data = Some(serde_json::json!({ "field": field }));
    error
}

impl Params {
    /// `params` as sent: an object, or nothing.
    pub fn new(params: Value) -> Params {
        Params {
            map: match params {
                Value::Object(map) => map,
                _ => Map::new(),
            },
        }
    }

    fn take(&mut self, field: &str) -> Option<Value> {
        self.map.remove(field).filter(|value| !value.is_null())
    }

    pub fn string(&mut self, field: &str) -> Result<String, Error> {
        self.opt_string(field)?
            .ok_or_else(|| invalid(field, "missing (a string)"))
    }

    pub fn opt_string(&mut self, field: &str) -> Result<Option<String>, Error> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(invalid(field, format!("expected a string, got {other}"))),
        }
    }

    /// A path; a relative one is from the server's folder.
    pub fn path(&mut self, field: &str) -> Result<PathBuf, Error> {
        self.opt_path(field)?
            .ok_or_else(|| invalid(field, "missing (a path)"))
    }

    pub fn opt_path(&mut self, field: &str) -> Result<Option<PathBuf>, Error> {
        Ok(match self.opt_string(field)? {
            Some(text) if text.is_empty() => return Err(invalid(field, "an empty path")),
            Some(text) => {
                let path = PathBuf::from(text);
                Some(std::path::absolute(&path).unwrap_or(path))
            }
            None => None,
        })
    }

    pub fn opt_bool(&mut self, field: &str) -> Result<Option<bool>, Error> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(flag)),
            Some(other) => Err(invalid(
                field,
                format!("expected true or false, got {other}"),
            )),
        }
    }

    pub fn flag(&mut self, field: &str) -> Result<bool, Error> {
        Ok(self.opt_bool(field)?.unwrap_or(false))
    }

    pub fn opt_u64(&mut self, field: &str) -> Result<Option<u64>, Error> {
        match self.take(field) {
            None => Ok(None),
            Some(value) => value.as_u64().map(Some).ok_or_else(|| {
                invalid(
                    field,
                    format!("expected a whole number of 0 or more, got {value}"),
                )
            }),
        }
    }

    /// A duration as the command line writes it (`"2s"`, `"500ms"`).
    pub fn opt_duration(&mut self, field: &str) -> Result<Option<Duration>, Error> {
        self.opt_parsed(field, crate::units::parse_duration)
    }

    /// A size as the command line writes it (`"256MiB"`).
    pub fn opt_size(&mut self, field: &str) -> Result<Option<u64>, Error> {
        self.opt_parsed(field, crate::units::parse_size)
    }

    /// A string the command line's parser for the same option reads.
    pub fn opt_parsed<T>(
        &mut self,
        field: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<Option<T>, Error> {
        match self.opt_string(field)? {
            None => Ok(None),
            Some(text) => parse(&text).map(Some).map_err(|why| invalid(field, why)),
        }
    }

    /// Nothing is left that the method does not take.
    pub fn finish(self) -> Result<(), Error> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(field) => Err(invalid(field, "not a parameter of this method")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(result: Result<impl std::fmt::Debug, Error>) -> (String, Value) {
        let error = result.unwrap_err();
        assert_eq!(error.code, INVALID_PARAMS);
        (error.message, error.data.unwrap()["field"].clone())
    }

    #[test]
    fn every_complaint_names_its_field() {
        let mut params = Params::new(json!({
            "source": 5, "watch": "yes", "time_limit": "fast", "since": -1, "extra": 1
        }));
        assert_eq!(
            message(params.string("source")),
            ("`source`: expected a string, got 5".into(), json!("source"))
        );
        assert_eq!(message(params.opt_bool("watch")).1, json!("watch"));
        let (text, field) = message(params.opt_duration("time_limit"));
        assert!(text.starts_with("`time_limit`: "), "{text}");
        assert_eq!(field, json!("time_limit"));
        assert_eq!(message(params.opt_u64("since")).1, json!("since"));
        assert_eq!(
            message(params.string("problem")),
            ("`problem`: missing (a string)".into(), json!("problem"))
        );
        assert_eq!(message(params.finish()).1, json!("extra"));
    }

    #[test]
    fn what_is_right_is_taken_and_null_is_absent() {
        let mut params = Params::new(json!({
            "source": "a.cpp", "watch": true, "time_limit": "1.5s", "memory_limit": "64MiB",
            "since": 3, "problem": null
        }));
        assert!(params.path("source").unwrap().is_absolute());
        assert_eq!(params.opt_bool("watch").unwrap(), Some(true));
        assert_eq!(
            params.opt_duration("time_limit").unwrap(),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(params.opt_size("memory_limit").unwrap(), Some(64 << 20));
        assert_eq!(params.opt_u64("since").unwrap(), Some(3));
        assert_eq!(params.opt_string("problem").unwrap(), None);
        params.finish().unwrap();
        Params::new(Value::Null).finish().unwrap();
    }
}
