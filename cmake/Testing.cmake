# memcal_whitebox(<target> <lib...>)
# Tests and benchmarks are white-box: besides a library's public header
# they may include its private headers.  For every memcal library among
# <lib...> (a target built from a folder of this tree), its source folder
# is added to <target>'s include path; the programs see public headers
# only.
function(memcal_whitebox target)
  foreach(lib ${ARGN})
    if(TARGET ${lib} AND lib MATCHES "^memcal_")
      get_target_property(type ${lib} TYPE)
      if(NOT type STREQUAL "INTERFACE_LIBRARY")
        get_target_property(dir ${lib} SOURCE_DIR)
        target_include_directories(${target} PRIVATE ${dir})
      endif()
    endif()
  endforeach()
endfunction()

# memcal_add_test(NAME <name> SOURCES <src...> [LIBS <lib...>]
#                 [TIMEOUT <s>] [LABELS <l...>] [SERIAL])
# Builds a Criterion test program and registers it with CTest.  Every entry
# has a TIMEOUT.  SERIAL runs Criterion with --jobs 1 (anything that measures
# time or bandwidth) and keeps CTest from running it beside other tests.
function(memcal_add_test)
  cmake_parse_arguments(T "SERIAL" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} PkgConfig::CRITERION)
  memcal_whitebox(${T_NAME} ${T_LIBS})
  target_compile_definitions(${T_NAME} PRIVATE
    MEMCAL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    MEMCAL_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set(args --verbose=0)
  if(T_SERIAL)
    list(APPEND args --jobs 1)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${args})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT}
                       LABELS "${T_LABELS};unit")
  if(T_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()
