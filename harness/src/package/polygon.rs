//! Reads a Codeforces Polygon package (`problem.xml`): the `tests` testset (`tests/NN` with
//! answers `tests/NN.a`), its limits, the checker (a `std::` one mapped to the judge's own,
//! any other compiled from its source with the package's `testlib.h`), the validators and the
//! solutions with their tags as expected verdicts; `<judging run-count="2">`, a solution run
//! twice with the checker writing run 2's input (see `judge::run_twice`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::invalid;
use super::limits::TimeLimit;
use super::FileError;
use super::{
    file_name, Format, Package, PackageError, PackageSubmission, SourceProgram, Validation,
};
use crate::case::discover::Case;
use crate::check::Checker;
use crate::package::expected::Expected;
use crate::verdict::Verdict;

/// The largest `<time-limit>`: an hour.
const MAX_TIME_MS: u64 = 3_600_000;
/// The largest `<memory-limit>`: 1 TiB.
const MAX_MEMORY_BYTES: u64 = 1 << 40;

/// A `std::` checker as one of the judge's own, or `None` for one it has no equal of.
pub fn std_checker(name: &str) -> Option<Checker> {
    let name = name.strip_prefix("std::")?.trim_end_matches(".cpp");
    let float = |digits: i32| Checker::Float {
        absolute: 10f64.powi(-digits),
        relative: 10f64.powi(-digits),
    };
    Some(match name {
        // Tokens compared exactly (case-sensitive), numbers as text or as values.
        "wcmp" | "ncmp" | "uncmp" | "hcmp" | "icmp" => Checker::Tokens,
        "lcmp" | "fcmp" => Checker::Lines,
        "rcmp" | "dcmp" => float(6),
        "yesno" | "nyesno" => {
            Checker::Package(std::sync::Arc::new(crate::check::package::PackageChecker {
                passes: None,
                validator: crate::check::package::OutputValidator::Default,
                groups: Vec::new(),
            }))
        }
        other => {
            let digits = other.strip_prefix("rcmp")?.parse::<i32>().ok()?;
            float(digits)
        }
    })
}

/// The verdicts a solution's tag stands for.
fn expected_of_tag(tag: &str) -> Expected {
    let any = |verdicts: &[Verdict], label: &str| Expected::AnyOf {
        verdicts: verdicts.to_vec(),
        label: label.to_string(),
    };
    match tag {
        "main" | "accepted" => Expected::One(Verdict::Accepted),
        "wrong-answer" | "presentation-error" => Expected::One(Verdict::WrongAnswer),
        "time-limit-exceeded" => Expected::One(Verdict::TimeLimitExceeded),
        "memory-limit-exceeded" => Expected::One(Verdict::MemoryLimitExceeded),
        "failed" => any(&[Verdict::RuntimeError], "RE"),
        "time-limit-exceeded-or-accepted" => {
            any(&[Verdict::Accepted, Verdict::TimeLimitExceeded], "AC/TLE")
        }
        "time-limit-exceeded-or-memory-limit-exceeded" => any(
            &[Verdict::TimeLimitExceeded, Verdict::MemoryLimitExceeded],
            "TLE/MLE",
        ),
        "rejected" => any(
            &[
                Verdict::WrongAnswer,
                Verdict::TimeLimitExceeded,
                Verdict::RuntimeError,
                Verdict::MemoryLimitExceeded,
                Verdict::OutputLimitExceeded,
            ],
            "not AC",
        ),
        other => Expected::Unchecked {
            folder: format!("tag {other}"),
        },
    }
}

/// The first child element named `name`.
fn child<'a, 'input>(
    node: roxmltree::Node<'a, 'input>,
    name: &str,
) -> Option<roxmltree::Node<'a, 'input>> {
    node.children().find(|c| c.has_tag_name(name))
}

/// `tests/%02d` with `n` put in, as Polygon's C-style pattern says.
fn pattern_path(pattern: &str, n: usize) -> String {
    let Some(start) = pattern.find('%') else {
        return pattern.to_string();
    };
    let rest = &pattern[start + 1..];
    let Some(end) = rest.find('d') else {
        return pattern.to_string();
    };
    let width: usize = rest[..end].trim_start_matches('0').parse().unwrap_or(0);
    format!("{}{n:0width$}{}", &pattern[..start], &rest[end + 1..])
}

/// The testset's scoring, as Polygon gives points: `<test points>` and `<test group>`, and
/// the testset's `<groups>` (`<group name points points-policy>` with `<dependencies>`).
/// `None` when no test has points and there are no groups: a pass-fail problem. A group's
/// `feedback-policy` says what a contestant is shown, not what is scored: not read.
fn scoring(
    testset: roxmltree::Node<'_, '_>,
    tests: &[roxmltree::Node<'_, '_>],
    cases: &[Case],
) -> Result<Option<crate::score::Scoring>, String> {
    use crate::score::{PointsPolicy, PolygonGroup, PolygonTest};
    let points = |node: roxmltree::Node<'_, '_>, what: &str| -> Result<Option<f64>, String> {
        match node.attribute("points") {
            None => Ok(None),
            Some(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite())
                .map(Some)
                .ok_or_else(|| format!("{what}: `points=\"{text}\"` is not a number")),
        }
    };
    let mut groups = Vec::new();
    for group in child(testset, "groups")
        .into_iter()
        .flat_map(|g| g.children().filter(|n| n.has_tag_name("group")))
    {
        let name = group
            .attribute("name")
            .ok_or("a `<group>` without a `name`")?
            .to_string();
        let what = format!("`<group name=\"{name}\">`");
        let policy = match group.attribute("points-policy") {
            Some("complete-group") => PointsPolicy::CompleteGroup,
            Some("each-test") => PointsPolicy::EachTest,
            Some(other) => {
                return Err(format!(
                    "{what}: `points-policy=\"{other}\"` is not `complete-group` or `each-test`"
                ))
            }
            None => {
                return Err(format!(
                    "{what} has no `points-policy` (`complete-group` or `each-test`)"
                ))
            }
        };
        let dependencies = child(group, "dependencies")
            .into_iter()
            .flat_map(|d| d.children().filter(|n| n.has_tag_name("dependency")))
            .map(|d| {
                d.attribute("group")
                    .map(str::to_string)
                    .ok_or_else(|| format!("{what}: a `<dependency>` without a `group`"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        groups.push(PolygonGroup {
            points: points(group, &what)?,
            name,
            policy,
            dependencies,
        });
    }
    // Every test is a case, in order (a missing one was refused before).
    let scored = (tests.iter().zip(cases).enumerate())
        .map(|(number, (test, case))| {
            Ok(PolygonTest {
                name: case.name.clone(),
                group: test.attribute("group").map(str::to_string),
                points: points(*test, &format!("test {}", number + 1))?,
                sample: test.attribute("sample") == Some("true"),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    // Polygon writes `points="0.0"` on every test of some problems that give none.
    if groups.is_empty() && scored.iter().all(|t| t.points.unwrap_or(0.0) == 0.0) {
        return Ok(None);
    }
    crate::score::polygon(&groups, &scored)
        .map(Some)
        .map_err(|error| format!("its scoring cannot be used: {error}"))
}

/// A node of problem.xml, as roxmltree gives it.
type Node<'a, 'input> = roxmltree::Node<'a, 'input>;

/// Reads the Polygon package in `root`: problem.xml and the parts of the package it names.
pub fn open(root: &Path) -> Result<Package, PackageError> {
    let root = super::canonical(root)?;
    let xml_path = root.join("problem.xml");
    let text = read_xml(&root, &xml_path)?;
    let document = parse_xml(&xml_path, &text)?;
    let problem = document.root_element();
    let name = problem
        .attribute("short-name")
        .map(str::to_string)
        .unwrap_or_else(|| file_name(&root));
    let title = title_of(problem).unwrap_or_else(|| name.clone());

    let assets = child(problem, "assets");

    let judging =
        child(problem, "judging").ok_or_else(|| invalid(&xml_path, "no <judging> element"))?;
    let files = file_io(judging, &xml_path)?;
    let testset = judging
        .children()
        .find(|t| t.has_tag_name("testset") && t.attribute("name") == Some("tests"))
        .or_else(|| judging.children().find(|t| t.has_tag_name("testset")))
        .ok_or_else(|| invalid(&xml_path, "no <testset> in <judging>"))?;
    let (time_ms, memory) = limits_of(testset, &xml_path)?;
    let (tests, cases) = cases_of(testset, &root, &xml_path)?;
    let scoring_rules = scoring(testset, &tests, &cases)
        .map_err(|message| invalid(&xml_path, message))?
        .map(std::sync::Arc::new);

    let paths = Paths {
        include: root.join("files"),
        root: &root,
        xml: &xml_path,
    };
    let validation = checker_of(assets, &paths)?;
    let interaction = interactor_of(assets, &paths)?;
    let input_validators = validators_of(assets, &paths)?;
    let submissions = solutions_of(assets, &paths)?;
    let graders = compile_resources(problem, &paths)?;
    let include = paths.include;
    let passes = run_count_of(judging, &xml_path, (&validation, &interaction, &files))?;

    Ok(Package {
        passes,
        checks: Vec::new(),
        root,
        format: Format::Polygon,
        name,
        title,
        scoring: scoring_rules.is_some(),
        scoring_rules,
        cases,
        groups: Vec::new(),
        validation,
        input_validators,
        time_limit: TimeLimit::Given {
            limit: Duration::from_millis(time_ms),
            source: "problem.xml",
        },
        memory_limit: memory,
        output_limit: 64 << 20,
        submissions,
        skipped: Vec::new(),
        interaction,
        testlib_validators: true,
        grader: None,
        output_only: false,
        files,
        include: Some(include).filter(|d| d.join("testlib.h").is_file()),
        communication: None,
        two_steps: false,
        graders,
    })
}

/// The resources compiled with the contestant's solution, as Polygon compiles them: each
/// `<files><resources><file>` whose `<stages>` has `compile` and whose `<assets>` has
/// `solution` (a grader with `main`, the header the solution includes). A C or C++ source is
/// its language's grader (a second one of a language is compiled with it all the same);
/// another language's source (a Python grader) is the program's entry point; anything else
/// (a header) is put beside every submission.
fn compile_resources(
    problem: Node<'_, '_>,
    paths: &Paths<'_>,
) -> Result<crate::config::Graders, PackageError> {
    let mut graders = crate::config::Graders::default();
    let Some(resources) = child(problem, "files").and_then(|f| child(f, "resources")) else {
        return Ok(graders);
    };
    let has = |file: Node<'_, '_>, list: &str, item: &str, name: &str| {
        child(file, list).is_some_and(|l| {
            l.children()
                .any(|c| c.has_tag_name(item) && c.attribute("name") == Some(name))
        })
    };
    for file in resources.children().filter(|c| c.has_tag_name("file")) {
        if !(has(file, "stages", "stage", "compile") && has(file, "assets", "asset", "solution")) {
            continue;
        }
        let written = file
            .attribute("path")
            .ok_or_else(|| invalid(paths.xml, "a <resources> <file> without a `path`"))?;
        let path = super::relative_inside(paths.root, written)
            .map_err(|why| invalid(paths.xml, format!("<file path=\"{written}\">: {why}")))?;
        super::check_inside(paths.root, &path)?;
        if !path.is_file() {
            return Err(invalid(
                paths.xml,
                format!(
                    "the resource `{written}`, compiled with the solution, is not in the package"
                ),
            ));
        }
        let code = match path.extension().and_then(|e| e.to_str()) {
            Some("cpp" | "cc" | "cxx" | "c++") => Some("cpp"),
            Some("c") => Some("c"),
            Some("py") => Some("python3"),
            Some("java") => Some("java"),
            Some("kt") => Some("kotlin"),
            _ => None,
        };
        match code {
            Some(code) if !graders.sources.iter().any(|(other, _)| other == code) => {
                graders.sources.push((code.to_string(), path));
            }
            Some(_) if matches!(code, Some("cpp" | "c")) => graders.files.push(path),
            Some(code) => {
                return Err(invalid(
                    paths.xml,
                    format!("two resources in {code} are compiled with the solution, and one is its entry point: `{written}` is the second"),
                ))
            }
            None => graders.files.push(path),
        }
    }
    Ok(graders)
}

/// problem.xml's text, refused when it is a link out of the package or far too large.
fn read_xml(root: &Path, xml_path: &Path) -> Result<String, PackageError> {
    super::check_inside(root, xml_path)?;
    // problem.xml lists the tests, not their data: a few KiB to a few hundred.
    let too_large = format!(
        "larger than {} MiB, more than a problem.xml holds: not read",
        super::yaml::MAX_BYTES >> 20
    );
    super::cms::read_small(xml_path, &too_large)
}

/// problem.xml parsed, or where it is malformed.
fn parse_xml<'input>(
    xml_path: &Path,
    text: &'input str,
) -> Result<roxmltree::Document<'input>, PackageError> {
    roxmltree::Document::parse(text).map_err(|error| {
        let position = error.pos();
        let (line, column) = (position.row as usize, position.col as usize);
        FileError::syntax(xml_path, line, column, error.to_string()).into()
    })
}

/// The English `<name>`, else the first.
fn title_of(problem: Node<'_, '_>) -> Option<String> {
    child(problem, "names").and_then(|names| {
        let all: Vec<_> = names
            .children()
            .filter(|n| n.has_tag_name("name"))
            .collect();
        all.iter()
            .find(|n| n.attribute("language") == Some("english"))
            .or(all.first())
            .and_then(|n| n.attribute("value"))
            .map(str::to_string)
    })
}

/// File input/output, as old Codeforces rounds use: the judge puts the input under that
/// name and reads the answer from the other.
fn file_io(judging: Node<'_, '_>, xml_path: &Path) -> Result<crate::config::FileIo, PackageError> {
    // Names of files in the program's folder: plain names, as judge.toml's are.
    let file = |attribute: &str| -> Result<Option<String>, PackageError> {
        let Some(name) = judging.attribute(attribute).filter(|f| !f.is_empty()) else {
            return Ok(None);
        };
        crate::config::check_file_name(name)
            .map_err(|why| invalid(xml_path, format!("<judging {attribute}>: {why}")))?;
        Ok(Some(name.to_string()))
    };
    Ok(crate::config::FileIo {
        input: file("input-file")?,
        output: file("output-file")?,
    })
}

/// `<judging run-count>`: how many times the solution runs on each test. Twice is read as
/// Polygon's default strategy runs a problem with no interactor (run 1's output judged by
/// the checker, whose stdout is run 2's input): the problem's own testlib checker and
/// standard input and output are needed. With an interactor (Polygon's run-twice-interactive,
/// or with `<runs>` run-twice-double-interactive) it is refused, as is any other count.
fn run_count_of(
    judging: Node<'_, '_>,
    xml_path: &Path,
    (validation, interaction, files): (&Validation, &super::Interaction, &crate::config::FileIo),
) -> Result<Option<u32>, PackageError> {
    let unsupported = |message: String| PackageError::Unsupported {
        path: xml_path.to_path_buf(),
        message,
    };
    match judging.attribute("run-count").map(str::trim) {
        None | Some("1") => return Ok(None),
        Some("2") => {}
        Some(other) => {
            return Err(unsupported(format!(
                "`<judging run-count=\"{other}\">`: the harness runs a Polygon solution once or twice (`run-count` 1 or 2)"
            )))
        }
    }
    if *interaction != super::Interaction::None {
        return Err(unsupported(
            "`<judging run-count=\"2\">` with an interactor (Polygon's run-twice-interactive and run-twice-double-interactive): not read yet; only a two-run problem judged by its checker is".to_string(),
        ));
    }
    if !matches!(validation, Validation::Testlib { .. }) {
        return Err(unsupported(
            "`<judging run-count=\"2\">` without a checker of the problem's own: Polygon gives run 2 what the checker writes after run 1, which a `std::` checker does not write".to_string(),
        ));
    }
    if files.input.is_some() || files.output.is_some() {
        return Err(unsupported(
            "`<judging run-count=\"2\">` with `input-file` or `output-file`: a two-run problem is read with standard input and output only".to_string(),
        ));
    }
    Ok(Some(2))
}

/// The testset's `<time-limit>` (milliseconds) and `<memory-limit>` (bytes).
fn limits_of(testset: Node<'_, '_>, xml_path: &Path) -> Result<(u64, u64), PackageError> {
    // The element's whole number from 1 to `max` (`max_note` after it in an error), of `unit`.
    let value = |name: &str, max: u64, max_note: &str, unit: &str, what: &str| {
        let text = child(testset, name).and_then(|n| n.text()).map(str::trim);
        let text = text
            .ok_or_else(|| invalid(xml_path, format!("the testset has no <{name}> in {unit}")))?;
        text.parse()
            .ok()
            .filter(|value| (1..=max).contains(value))
            .ok_or_else(|| {
                invalid(
                    xml_path,
                    format!("<{name}> `{text}` is not a {what}: it must be a whole number of {unit} from 1 to {max}{max_note}"),
                )
            })
    };
    let time_ms = value("time-limit", MAX_TIME_MS, "", "milliseconds", "time limit")?;
    let memory = value(
        "memory-limit",
        MAX_MEMORY_BYTES,
        " (1 TiB)",
        "bytes",
        "memory limit",
    )?;
    Ok((time_ms, memory))
}

/// The testset's `<test>` elements and their cases on disk (`tests/NN`, `tests/NN.a` by the
/// path patterns); a "standard" package, whose generated tests are not in it, is refused.
fn cases_of<'a, 'input>(
    testset: Node<'a, 'input>,
    root: &Path,
    xml_path: &Path,
) -> Result<(Vec<Node<'a, 'input>>, Vec<Case>), PackageError> {
    let value = |name: &str| child(testset, name).and_then(|n| n.text()).map(str::trim);
    let pattern = |name: &str, default: &str| -> Result<String, PackageError> {
        let written = value(name).unwrap_or(default);
        super::relative_inside(root, written)
            .map_err(|why| invalid(xml_path, format!("<{name}>: {why}")))?;
        Ok(written.to_string())
    };
    let input_pattern = pattern("input-path-pattern", "tests/%02d")?;
    let answer_pattern = pattern("answer-path-pattern", "tests/%02d.a")?;
    let tests: Vec<Node<'a, 'input>> = child(testset, "tests")
        .map(|t| t.children().filter(|n| n.has_tag_name("test")).collect())
        .unwrap_or_default();

    let mut cases = Vec::new();
    let mut missing_generated = 0;
    let mut missing_answers = 0;
    for (index, test) in tests.iter().enumerate() {
        let number = index + 1;
        let input = root.join(pattern_path(&input_pattern, number));
        let answer = root.join(pattern_path(&answer_pattern, number));
        super::check_inside(root, &input)?;
        super::check_inside(root, &answer)?;
        if !input.is_file() {
            if test.attribute("method") == Some("generated") {
                missing_generated += 1;
                continue;
            }
            return Err(invalid(&input, "a manual test's input is missing"));
        }
        if !answer.is_file() {
            missing_answers += 1;
            continue;
        }
        let shown = input
            .strip_prefix(root)
            .unwrap_or(&input)
            .to_string_lossy()
            .into_owned();
        cases.push(Case {
            name: shown,
            input,
            answer,
            args: Vec::new(),
        });
    }
    if missing_generated > 0 || missing_answers > 0 {
        let doall = if root.join("doall.sh").is_file() {
            " with `doall.sh`"
        } else {
            ""
        };
        return Err(PackageError::Unsupported {
            path: root.to_path_buf(),
            message: format!(
                "a \"standard\" Polygon package: {missing_generated} generated tests and {missing_answers} answers are not in it; they are made{doall} by running the package's generators and main solution (hint: download the \"full\" package from Polygon, which has `tests/NN` and `tests/NN.a`, or run `doall.sh` first)"
            ),
        });
    }
    if cases.is_empty() {
        return Err(invalid(xml_path, "the testset has no tests"));
    }
    Ok((tests, cases))
}

/// Where the package's programs are: its folder, problem.xml (for messages), `files/`.
struct Paths<'a> {
    root: &'a Path,
    xml: &'a Path,
    /// `files/`, where a package keeps `testlib.h`.
    include: PathBuf,
}

impl Paths<'_> {
    /// A `<source path>`: inside the package, or an error.
    fn source_of(&self, node: Node<'_, '_>) -> Result<Option<PathBuf>, PackageError> {
        let Some(written) = child(node, "source").and_then(|s| s.attribute("path")) else {
            return Ok(None);
        };
        let path = super::relative_inside(self.root, written)
            .map_err(|why| invalid(self.xml, format!("<source path>: {why}")))?;
        super::check_inside(self.root, &path)?;
        Ok(Some(path))
    }

    /// The folder holding the `testlib.h` a program is built with.
    fn header_folder(&self, source: &Path) -> Result<Option<PathBuf>, PackageError> {
        for folder in [
            self.include.clone(),
            source.parent().map(Path::to_path_buf).unwrap_or_default(),
            self.root.to_path_buf(),
        ] {
            let header = folder.join("testlib.h");
            super::check_inside(self.root, &header)?;
            if header.is_file() {
                return Ok(Some(folder));
            }
        }
        Ok(None)
    }

    /// A program of the package, named by its path in the package.
    fn program(&self, path: PathBuf) -> SourceProgram {
        SourceProgram::in_package(self.root, path, &[])
    }

    /// The testlib program `source` (the checker, the interactor: `what`) and the folder of
    /// the `testlib.h` it is built with, which the package must have.
    fn testlib_program(
        &self,
        source: PathBuf,
        what: &str,
    ) -> Result<(SourceProgram, PathBuf), PackageError> {
        let include = self.header_folder(&source)?.ok_or_else(|| {
            invalid(
                &source,
                format!(
                    "the {what} needs `testlib.h`, which the package does not have in `files/`"
                ),
            )
        })?;
        Ok((self.program(source), include))
    }
}

/// The checker: a `std::` one as the judge's own, any other built from its source with the
/// package's `testlib.h`; none is `std::wcmp`'s tokens.
fn checker_of(assets: Option<Node<'_, '_>>, paths: &Paths<'_>) -> Result<Validation, PackageError> {
    let Some(checker) = assets.and_then(|a| child(a, "checker")) else {
        return Ok(Validation::Builtin(Checker::Tokens));
    };
    let mapped = checker.attribute("name").and_then(std_checker);
    match (mapped, paths.source_of(checker)?) {
        (Some(builtin), _) => Ok(Validation::Builtin(builtin)),
        (None, Some(source)) if source.is_file() => {
            let (program, include) = paths.testlib_program(source, "checker")?;
            Ok(Validation::Testlib { program, include })
        }
        (None, source) => Err(invalid(
            paths.xml,
            format!(
                "the checker `{}` is not a standard one and its source `{}` is missing",
                checker.attribute("name").unwrap_or("?"),
                source.map(|s| s.display().to_string()).unwrap_or_default()
            ),
        )),
    }
}

/// The interactor: testlib, built like the checker, whose OUTPUT the checker then judges.
fn interactor_of(
    assets: Option<Node<'_, '_>>,
    paths: &Paths<'_>,
) -> Result<super::Interaction, PackageError> {
    let Some(node) = assets.and_then(|a| child(a, "interactor")) else {
        return Ok(super::Interaction::None);
    };
    match paths.source_of(node)? {
        Some(source) if source.is_file() => {
            let (program, include) = paths.testlib_program(source, "interactor")?;
            Ok(super::Interaction::Testlib { program, include })
        }
        source => Err(invalid(
            paths.xml,
            format!(
                "the interactor's source `{}` is missing",
                source.map(|s| s.display().to_string()).unwrap_or_default()
            ),
        )),
    }
}

/// The input validators whose source is in the package.
fn validators_of(
    assets: Option<Node<'_, '_>>,
    paths: &Paths<'_>,
) -> Result<Vec<SourceProgram>, PackageError> {
    let mut validator_sources = Vec::new();
    if let Some(validators) = assets.and_then(|a| child(a, "validators")) {
        for validator in validators
            .children()
            .filter(|v| v.has_tag_name("validator"))
        {
            validator_sources.extend(paths.source_of(validator)?);
        }
    }
    Ok(validator_sources
        .into_iter()
        .filter(|p| p.is_file())
        .map(|path| paths.program(path))
        .collect())
}

/// The solutions, each expected to get what its tag says; the accepted ones bound the time
/// limit from below.
fn solutions_of(
    assets: Option<Node<'_, '_>>,
    paths: &Paths<'_>,
) -> Result<Vec<PackageSubmission>, PackageError> {
    let mut submissions = Vec::new();
    let Some(solutions) = assets.and_then(|a| child(a, "solutions")) else {
        return Ok(submissions);
    };
    for solution in solutions.children().filter(|s| s.has_tag_name("solution")) {
        let Some(path) = paths.source_of(solution)? else {
            continue;
        };
        let tag = solution.attribute("tag").unwrap_or("");
        let shown = path
            .strip_prefix(paths.root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let expected = expected_of_tag(tag);
        // Polygon's tags say nothing of scores.
        submissions.push(PackageSubmission::judged(
            format!("{shown} ({tag})"),
            path,
            expected,
            None,
        ));
    }
    Ok(submissions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_std_checkers() {
        assert_eq!(pattern_path("tests/%02d", 7), "tests/07");
        assert_eq!(pattern_path("tests/%02d.a", 12), "tests/12.a");
        assert_eq!(pattern_path("tests/%d", 3), "tests/3");
        assert_eq!(std_checker("std::wcmp.cpp"), Some(Checker::Tokens));
        assert_eq!(std_checker("std::lcmp.cpp"), Some(Checker::Lines));
        assert_eq!(
            std_checker("std::rcmp4.cpp"),
            Some(Checker::Float {
                absolute: 1e-4,
                relative: 1e-4
            })
        );
        assert!(matches!(
            std_checker("std::yesno.cpp"),
            Some(Checker::Package(_))
        ));
        assert_eq!(std_checker("check.cpp"), None);
        assert_eq!(std_checker("std::unknown.cpp"), None);
        assert!(expected_of_tag("main").allows(Verdict::Accepted));
        assert!(expected_of_tag("rejected").allows(Verdict::MemoryLimitExceeded));
        assert!(!expected_of_tag("rejected").allows(Verdict::Accepted));
    }

    #[test]
    fn run_count_two_is_read_with_a_checker_of_its_own_and_refused_otherwise() {
        let program = || SourceProgram::new(PathBuf::from("files/check.cpp"), "check.cpp");
        let testlib = Validation::Testlib {
            program: program(),
            include: PathBuf::from("files"),
        };
        let interactor = super::super::Interaction::Testlib {
            program: program(),
            include: PathBuf::from("files"),
        };
        let none = super::super::Interaction::None;
        let stdio = crate::config::FileIo::default();
        let files = crate::config::FileIo {
            input: Some("input.txt".to_string()),
            output: None,
        };
        let std_checker = Validation::Builtin(Checker::Tokens);
        let read = |attributes: &str, parts: (&Validation, &super::super::Interaction, &_)| {
            let text = format!("<judging {attributes}/>");
            let document = roxmltree::Document::parse(&text).unwrap();
            run_count_of(document.root_element(), Path::new("problem.xml"), parts)
                .map_err(|e| e.to_string())
        };
        assert_eq!(read("", (&testlib, &none, &stdio)), Ok(None));
        assert_eq!(read("run-count=\"1\"", (&testlib, &none, &stdio)), Ok(None));
        assert_eq!(
            read("run-count=\"2\"", (&testlib, &none, &stdio)),
            Ok(Some(2))
        );
        for (attributes, parts, says) in [
            (
                "run-count=\"3\"",
                (&testlib, &none, &stdio),
                "run-count=\"3\"",
            ),
            (
                "run-count=\"2\"",
                (&testlib, &interactor, &stdio),
                "with an interactor",
            ),
            (
                "run-count=\"2\"",
                (&std_checker, &none, &stdio),
                "`std::` checker",
            ),
            ("run-count=\"2\"", (&testlib, &none, &files), "`input-file`"),
        ] {
            let error = read(attributes, parts).unwrap_err();
            assert!(
                error.contains("problem.xml") && error.contains(says),
                "{error}"
            );
        }
    }
}
