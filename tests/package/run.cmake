# package_test: installs the build into a temporary prefix, runs the installed command from
# another directory, then configures, builds and runs the project beside this file against the
# install with find_package(battlecore).
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<source> -DWORK_DIR=<scratch> -DCXX=<compiler>
#         -DGENERATOR=<generator> -DBUILD_TYPE=<type> -DBINDIR=<bin> -DINCLUDEDIR=<include>
#         -DDATADIR=<share> -P run.cmake
# (the directories are the build's CMAKE_INSTALL_<dir>, relative to the prefix).
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX GENERATOR BINDIR INCLUDEDIR DATADIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(consumer "${WORK_DIR}/consumer")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_match what text regex)
  if(NOT "${text}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected a match of '${regex}' in:\n${text}")
  endif()
endfunction()

# A path as a regular expression matching itself.
function(regex_of var path)
  string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" escaped "${path}")
  set(${var} "${escaped}" PARENT_SCOPE)
endfunction()

# The install.
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
set(data "${prefix}/${DATADIR}/battlecore/data")
regex_of(data_re "${data}")
regex_of(prefix_re "${prefix}")
foreach(f "${BINDIR}/battlecore"
          "${INCLUDEDIR}/battlecore/deckbuilder/battle.hpp"
          "${INCLUDEDIR}/battlecore/sim/content_path.hpp"
          "${DATADIR}/battlecore/data/deckbuilder/starter/pack.json"
          "${DATADIR}/battlecore/data/clash/classic"
          "${DATADIR}/battlecore/data/party/meadow")
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
file(GLOB_RECURSE config_files "${prefix}/*/battlecoreConfig.cmake" "${prefix}/*/battlecoreConfigVersion.cmake")
list(LENGTH config_files n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected battlecoreConfig.cmake and battlecoreConfigVersion.cmake in the install: ${config_files}")
endif()

# The installed command runs from another directory, $BATTLECORE_DATA unset: it finds the packs
# in <prefix>/bin/../share/battlecore/data, which data_roots() lists before the source tree's.
run("installed battlecore sim" "${CMAKE_COMMAND}" -E env --unset=BATTLECORE_DATA
    "${prefix}/${BINDIR}/battlecore" sim --rules deckbuilder --battles 20 --seed 1)
expect_match("installed battlecore sim" "${out}" "rules +deckbuilder\n")
expect_match("installed battlecore sim" "${out}" "\nerrors +0\n")

# The consumer, with the build's compiler and the default flags of its build type.
set(build_type "")
if(DEFINED BUILD_TYPE)
  set(build_type "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
run("configuring the consumer" "${CMAKE_COMMAND}" -E env --unset=CXXFLAGS
    "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}" -B "${consumer}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" ${build_type} "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS "${consumer}/CMakeCache.txt" found_dir REGEX "^battlecore_DIR:")
expect_match("battlecore_DIR" "${found_dir}" "=${prefix_re}/")
run("building the consumer" "${CMAKE_COMMAND}" --build "${consumer}" -j 2)

# The consumer compiles with its own flags (and C++20, which the public headers need and the
# targets ask for), none of the project's warnings, -Werror or instrumentation, and with the
# installed headers only.
file(READ "${consumer}/compile_commands.json" commands)
foreach(flag -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -fsanitize -fprofile "${SOURCE_DIR}/include"
        "${SOURCE_DIR}/src")
  string(FIND "${commands}" "${flag}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the consumer's compile command has ${flag}, from the battlecore build:\n${commands}")
  endif()
endforeach()

run("the consumer" "${CMAKE_COMMAND}" -E env "BATTLECORE_DATA=${data}" "${consumer}/consumer")
message("${out}")
expect_match("the consumer's output" "${out}" "lookup: ${data_re}/deckbuilder/starter\n")
expect_match("the consumer's output" "${out}" "package: ${data_re}/deckbuilder/starter\n")
expect_match("the consumer's output" "${out}" "encounter [a-z0-9_]+: (won|lost) after [0-9]+ turns, [0-9]+ choices")

# A component that names no target is refused, and the reason names it.
set(components "${WORK_DIR}/components")
file(WRITE "${components}/CMakeLists.txt"
     "cmake_minimum_required(VERSION 3.25)\nproject(components LANGUAGES CXX)\n"
     "find_package(battlecore 0.1 REQUIRED COMPONENTS deckbuilder nope)\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${components}" -B "${components}/build" -G "${GENERATOR}"
                        "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "find_package(battlecore COMPONENTS nope) was found:\n${out}")
endif()
expect_match("find_package(battlecore COMPONENTS nope)" "${err}" "battlecore has no component 'nope'")

# The same targets after add_subdirectory, where battlecore's tests and install rules are off: the
# subproject, configured and not built, installs nothing (battlecore's rules would install the
# packs, and fail on its libraries, which are not built).
set(subproject "${WORK_DIR}/subproject")
run("configuring the subproject" "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/subproject" -B "${subproject}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DBATTLECORE_SOURCE=${SOURCE_DIR}")
file(STRINGS "${subproject}/CMakeCache.txt" options REGEX "^BATTLECORE_(BUILD_TESTS|INSTALL):")
expect_match("the subproject's options" "${options}" "BATTLECORE_BUILD_TESTS:BOOL=OFF")
expect_match("the subproject's options" "${options}" "BATTLECORE_INSTALL:BOOL=OFF")
run("installing the subproject" "${CMAKE_COMMAND}" --install "${subproject}" --prefix "${WORK_DIR}/subproject-prefix")
file(GLOB_RECURSE installed RELATIVE "${WORK_DIR}/subproject-prefix" "${WORK_DIR}/subproject-prefix/*")
if(installed)
  message(FATAL_ERROR "the subproject's install holds battlecore's files: ${installed}")
endif()
