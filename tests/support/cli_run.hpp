#pragma once
// The battlecore program run as a whole, as a user runs it: its exit code, stdout and stderr; and
// the text helpers the command-line tests (tests/apps) read them with. The program is the one
// BATTLECORE_CLI names, a definition tests/CMakeLists.txt gives the targets that run it.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/temp_dir.hpp"

#ifndef BATTLECORE_CLI
#error "support/cli_run.hpp runs the program BATTLECORE_CLI names: define it for the test target"
#endif

namespace battlecore::test {

/// The bytes of the file at `path` (none when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// `s` in single quotes for /bin/sh.
inline std::string shell_quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

/// One run of the program.
struct CliRun {
  int code = -1;  ///< the exit code, or 128 + the signal that ended it
  std::string out;
  std::string err;
  std::string command;  ///< the shell command that ran it
};

/// Runs the program with `args` (already quoted as needed) from the temporary directory, outside
/// the source and build trees so that bundled packs must be found with no flags, with `input` on
/// stdin and BATTLECORE_DATA unset; stdout and stderr are captured to files.
inline CliRun cli(const std::string& args, const std::string& input = "") {
  namespace fs = std::filesystem;
  TempDir dir;
  const fs::path in = dir.path() / "stdin.txt", out = dir.path() / "stdout.txt",
                 err = dir.path() / "stderr.txt";
  std::ofstream(in) << input;
  CliRun r;
  r.command = "cd " + shell_quoted(fs::temp_directory_path().string()) + " && env -u BATTLECORE_DATA " +
              shell_quoted(BATTLECORE_CLI) + " " + args + " <" + shell_quoted(in.string()) + " >" +
              shell_quoted(out.string()) + " 2>" + shell_quoted(err.string());
  const int status = std::system(r.command.c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

/// The run as a failed assertion shows it: the command, the exit code, stdout and stderr.
inline std::string explain(const CliRun& r) {
  return "command: " + r.command + "\nexit: " + std::to_string(r.code) + "\n--- stdout\n" + r.out +
         "--- stderr\n" + r.err;
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// The lines of `text`, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace battlecore::test
