//! Hostile `generators/generators.yaml` recipes, as a downloaded package may hold them, run by
//! the real `harness gen`: names that are paths out of the package (a generator's cache folder,
//! a case, a folder), a `data/` that links out, and expansions without end (constants,
//! includes, `count:`, a generator's huge files). Each is refused with exit 2 and a message
//! that names generators.yaml (and the key) or the case, and nothing outside the package and
//! its cache is touched: the victims are folders of the test's own temporary project.
#![cfg(unix)]

mod common;

use std::path::Path;

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// A package `pkg` with this recipe, and a victim outside it: `outside/victim/keep.txt`.
fn package(recipe: &str) -> Project {
    Project::new()
        .file("pkg/problem.yaml", "name: Hostile\n")
        .file("pkg/generators/generators.yaml", recipe)
        .file("pkg/generators/gen.py", "print(1)\n")
        .file("outside/victim/keep.txt", "mine\n")
}

/// `harness gen pkg` with the cache in the project (`.cache`), so that a path relative to the
/// cache is a path in the project: (exit code, stdout, stderr).
fn gen(project: &Project, args: &[&str]) -> (Option<i32>, String, String) {
    let output = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .arg("gen")
        .args(args)
        .output()
        .expect("the harness runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code(), stdout, stderr)
}

/// `harness gen pkg` is refused with every one of `words` in its message.
fn refused(project: &Project, words: &[&str]) -> String {
    said_no(gen(project, &["pkg"]), words)
}

/// A run of [`gen`] was a refusal with every one of `words` in its message.
fn said_no((code, stdout, stderr): (Option<i32>, String, String), words: &[&str]) -> String {
    assert_eq!(code, Some(ERROR), "stdout: {stdout}\nstderr: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "no `{word}` in: {stderr}");
    }
    stderr
}

fn assert_victim_kept(project: &Project) {
    assert_eq!(
        std::fs::read_to_string(project.join("outside/victim/keep.txt")).ok(),
        Some("mine\n".to_string()),
        "the folder outside the package was touched"
    );
}

/// Finding 1: `generators//ABS/dir` named the generator `/ABS/dir`, whose cache folder was
/// `remove_dir_all`'d; a relative key with `../` did the same from the second run on.
#[test]
fn a_generator_key_never_removes_a_folder_outside_the_cache() {
    let absolute = {
        let project = package("");
        let victim = project.join("outside/victim");
        project.write(
            "pkg/generators/generators.yaml",
            &format!(
                "generators:\n  '{victim}':\n    - gen.py\ndata:\n  secret:\n    data:\n      a: generators/{victim}\n",
                victim = victim.display()
            ),
        );
        project
    };
    let run = gen(&absolute, &["pkg"]);
    assert_victim_kept(&absolute);
    said_no(run, &["generators.yaml", "is not a plain path"]);

    // From `.cache/generator-sources/<hash>/`, three levels up is the project.
    let relative = package(
        "generators:\n  ../../../outside/victim:\n    - gen.py\ndata:\n  secret:\n    data:\n      a: ../../../outside/victim\n",
    );
    for _ in 0..2 {
        let run = gen(&relative, &["pkg"]);
        assert_victim_kept(&relative);
        said_no(
            run,
            &[
                "generators.yaml",
                "`generators.../../../outside/victim`",
                "`..`",
            ],
        );
    }
}

/// Finding 2: a `data:` key `../../../victim` wrote its case outside the package, and a folder
/// key put its `test_group.yaml` and cases there.
#[test]
fn case_and_folder_names_never_leave_the_package() {
    let project = package(
        "data:\n  secret:\n    data:\n      ../../../outside/victim/keep:\n        in: \"1\"\n        ans: \"1\"\n",
    );
    project.write("outside/victim/keep.in", "mine\n");
    let run = gen(&project, &["pkg"]);
    assert_eq!(project.read("outside/victim/keep.in"), "mine\n");
    assert!(!project.join("outside/victim/keep.ans").exists());
    said_no(
        run,
        &[
            "generators.yaml",
            "`data.secret.data.../../../outside/victim/keep`",
        ],
    );

    project.write(
        "pkg/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      ../../../outside/group:\n        test_group.yaml:\n          output_validator_args: [x]\n        data:\n          a:\n            in: \"1\"\n            ans: \"1\"\n",
    );
    let run = gen(&project, &["pkg"]);
    assert!(!project.join("outside/group").exists());
    said_no(run, &["generators.yaml", "is not a plain path"]);

    // A name with `/`, an empty part, an include that is a path, a copy out of the package:
    // all the same check.
    for (recipe, key) in [
        (
            "data:\n  secret:\n    data:\n      a/b:\n        in: \"1\"\n",
            "a/b",
        ),
        (
            "data:\n  secret:\n    data:\n      a:\n        copy: ../../outside/victim/keep\n",
            "copy: ../../outside/victim/keep",
        ),
        (
            "data:\n  secret:\n    include:\n      - ../sample\n    data: {}\n",
            "../sample",
        ),
        (
            "data:\n  secret:\n    data:\n      a: sub//gen.py\n",
            "sub//gen.py",
        ),
    ] {
        project.write("pkg/generators/generators.yaml", recipe);
        refused(&project, &["generators.yaml", key]);
    }
    assert!(!project.join("pkg/data").exists(), "nothing is written");
    assert_victim_kept(&project);
}

/// Finding 3: `harness gen` wrote through a `data/` or `data/secret` that links out of the
/// package, where `judge` refuses such a package.
#[test]
fn a_data_folder_that_links_out_is_refused_before_anything_is_written() {
    let recipe = "data:\n  secret:\n    data:\n      a:\n        in: \"1\"\n        ans: \"1\"\n";
    for link in ["pkg/data", "pkg/data/secret"] {
        let project = package(recipe);
        std::fs::create_dir_all(project.join(link).parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(project.join("outside/victim"), project.join(link)).unwrap();
        let run = gen(&project, &["pkg"]);
        let names: Vec<_> = std::fs::read_dir(project.join("outside/victim"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["keep.txt"], "written through `{link}`");
        assert_victim_kept(&project);
        let stderr = said_no(run, &["symbolic link out of the package", link]);
        assert!(stderr.contains("outside/victim"), "{stderr}");
    }
}

/// Finding 9: `{{constant}}` substitution had no bound on its result (600 GB from 4 MB of
/// files). A command of a thousand references to a 1 MiB constant is refused at 128 KiB.
#[test]
fn constants_cannot_blow_a_command_up() {
    let big = "x".repeat(1 << 20);
    let project = package(&format!(
        "data:\n  secret:\n    data:\n      a: gen.py {}\n",
        "{{BIG}}".repeat(1000)
    ))
    .file(
        "pkg/problem.yaml",
        &format!("name: Hostile\nconstants:\n  BIG: {big}\n"),
    );
    refused(
        &project,
        &[
            "generators.yaml",
            "`data.secret.data.a`",
            "longer than 128 KiB once its `{{constants}}` are put in",
        ],
    );
}

/// Finding 9, where packages are judged: a `test_group.yaml` whose constants grow it past a
/// YAML file's 4 MiB is refused, naming the file.
#[test]
fn constants_cannot_blow_a_test_group_up() {
    let big = "x".repeat(1 << 20);
    let project = Project::new()
        .file(
            "pkg/problem.yaml",
            &format!("problem_format_version: 2025-09\nname: Hostile\nconstants:\n  BIG: {big}\n"),
        )
        .file("pkg/data/sample/1.in", "1\n")
        .file("pkg/data/sample/1.ans", "1\n")
        .file(
            "pkg/data/secret/test_group.yaml",
            &format!("args: [{}]\n", "'{{BIG}}', ".repeat(1000)),
        )
        .file("pkg/data/secret/1.in", "1\n")
        .file("pkg/data/secret/1.ans", "1\n")
        .file("pkg/submissions/accepted/echo.py", "print(input())\n");
    let output = project
        .harness()
        .args(["verify", "pkg"])
        .output()
        .expect("the harness runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(ERROR), "{stderr}");
    for word in [
        "test_group.yaml",
        "`{{constants}}` put in",
        "larger than 4 MiB",
    ] {
        assert!(stderr.contains(word), "no `{word}` in: {stderr}");
    }
}

/// Finding 10: folders that each `include:` the previous one twice doubled per level (2^40
/// links at 40). A case included twice is linked once, as BAPCtools keeps includes by name,
/// and what includes name is bounded in total.
#[test]
fn includes_do_not_double_and_are_bounded_in_total() {
    let mut recipe = String::from(
        "data:\n  secret:\n    data:\n      g00:\n        data:\n          a:\n            in: \"1\"\n            ans: \"1\"\n          b:\n            in: \"2\"\n            ans: \"2\"\n",
    );
    for level in 1..=40 {
        let previous = format!("g{:02}", level - 1);
        recipe.push_str(&format!(
            "      g{level:02}:\n        include:\n          - {previous}\n          - {previous}\n        data: {{}}\n"
        ));
    }
    let project = package(&recipe);
    let (code, stdout, stderr) = gen(&project, &["pkg"]);
    assert_eq!(code, Some(OK), "{stdout}{stderr}");
    assert!(stdout.contains("generated 82 cases"), "{stdout}");
    assert_eq!(
        std::fs::read_link(project.join("pkg/data/secret/g40/a.in")).unwrap(),
        Path::new("../g00/a.in")
    );

    // 10,000 cases included by eleven folders: 120,000 in all, past the bound.
    let mut recipe = String::from("data:\n  secret:\n    data:\n      base:\n        data:\n");
    for key in 0..100 {
        recipe.push_str(&format!(
            "          c{key}:\n            in: \"1\"\n            ans: \"1\"\n            count: 100\n"
        ));
    }
    for folder in 0..11 {
        recipe.push_str(&format!(
            "      copy{folder:02}:\n        include:\n          - base\n        data: {{}}\n"
        ));
    }
    project.write("pkg/generators/generators.yaml", &recipe);
    refused(
        &project,
        &["generators.yaml", "more than 100000 cases", "`include:`"],
    );
}

/// Finding 14: repeated `count:` cases were quadratic (40,000 cases in 110 s) and nothing
/// bounded the number of cases. 40,000 are linked at once; 100,100 are refused.
#[test]
fn many_repeated_cases_are_linked_at_once_and_bounded() {
    let recipe = |keys: usize| {
        let mut recipe = String::from("data:\n  secret:\n    data:\n");
        for key in 0..keys {
            recipe.push_str(&format!(
                "      c{key:04}:\n        in: \"1\"\n        ans: \"1\"\n        count: 100\n"
            ));
        }
        recipe
    };
    // `--check` makes every case and compares, without the file system's own cost of
    // writing 80,000 links.
    let project = package(&recipe(400));
    let (code, stdout, stderr) = gen(&project, &["pkg", "--check"]);
    assert_eq!(code, Some(FAILED), "{stdout}{stderr}");
    assert!(
        stdout.contains("0 of 80000 files as generators.yaml makes them (40000 cases"),
        "{}",
        stdout.lines().last().unwrap_or_default()
    );
    assert!(stdout.contains("MISSING data/secret/c0399-100.in"));

    project.write("pkg/generators/generators.yaml", &recipe(1001));
    refused(
        &project,
        &[
            "generators.yaml",
            "`data.secret.data.c1000`",
            "more than 100000 cases",
        ],
    );
}

/// Finding 12: a generator's files were read whole into memory and kept to the end (sparse
/// 500 MiB files: 4.5 GB a case), and one past 512 MiB was cut there without a word. Its size
/// is now read first: a sparse file of 600 MiB is refused at once, naming the case and the
/// bound.
#[test]
fn a_generated_file_past_the_bound_is_refused_unread() {
    if !sandbox_available() {
        common::skipped("no sandbox on this machine (`harness doctor`): generators not run");
        return;
    }
    let project = package(
        "data:\n  secret:\n    data:\n      huge:\n        generate: sparse.py\n        ans: \"1\"\n",
    )
    .file(
        "pkg/generators/sparse.py",
        "with open('testcase.in', 'wb') as f:\n    f.truncate(600 << 20)\n",
    );
    refused(
        &project,
        &[
            "secret/huge",
            "`testcase.in` of 600.0 MiB, more than the 512 MiB a generated file may be",
        ],
    );
    assert!(!project.join("pkg/data").exists(), "nothing is written");
}

/// `harness doctor` says whether this machine can sandbox.
fn sandbox_available() -> bool {
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("doctor")
        .output()
        .expect("the harness runs");
    String::from_utf8_lossy(&output.stdout).contains("namespaces: yes")
}

/// Found on the way (not one of the fifteen): YAML aliases are copies, so 1 MiB named
/// by `&big` and repeated by 200 `*big` was 200 MiB held in memory (2 GB from 2,000, written
/// into `data/` as as many cases). What a YAML file holds once read is bounded, at its line.
#[test]
fn aliases_cannot_blow_a_recipe_up() {
    let mut recipe = format!(
        "anchor: &big \"{}\"\ndata:\n  secret:\n    data:\n",
        "x".repeat(1 << 20)
    );
    for key in 0..200 {
        recipe.push_str(&format!("      c{key}: {{in: *big, ans: \"1\"}}\n"));
    }
    let project = package(&recipe);
    refused(
        &project,
        &["generators.yaml:1:", "more than 64 MiB once its aliases"],
    );
    assert!(!project.join("pkg/data").exists(), "nothing is written");
}
