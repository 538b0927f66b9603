# apogee_module(NAME [DEPS mod...] [EXTERNAL target...])
#
# Builds src/NAME/**/*.cc into the static library apogee_NAME. The module's headers are
# exposed as "NAME/header.h" through a private staging directory that holds only a
# link to src/NAME, so a file can include a module's headers only when its target
# links that module. Module links are PRIVATE: a module never re-exports its own
# dependencies, which is what makes a wrong include fail to build.
set(APOGEE_MODULE_INCLUDE_ROOT "${CMAKE_BINARY_DIR}/module-include")

function(apogee_module NAME)
  cmake_parse_arguments(ARG "" "" "DEPS;EXTERNAL" ${ARGN})
  set(stage "${APOGEE_MODULE_INCLUDE_ROOT}/${NAME}")
  file(MAKE_DIRECTORY "${stage}")
  file(CREATE_LINK "${CMAKE_SOURCE_DIR}/src/${NAME}" "${stage}/${NAME}" SYMBOLIC)

  # A module may keep its parts in subfolders (src/broker/processors/...); headers are
  # still included as "NAME/sub/header.h".
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/${NAME}/*.cc")
  set(target apogee_${NAME})
  if(sources)
    add_library(${target} STATIC ${sources})
    target_include_directories(${target} PUBLIC "${stage}")
    foreach(dep IN LISTS ARG_DEPS)
      target_link_libraries(${target} PRIVATE apogee_${dep})
    endforeach()
    if(ARG_EXTERNAL)
      target_link_libraries(${target} PRIVATE ${ARG_EXTERNAL})
    endif()
  else()
    # A module with no sources yet (or header-only) is an interface target.
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE "${stage}")
    foreach(dep IN LISTS ARG_DEPS)
      target_link_libraries(${target} INTERFACE $<LINK_ONLY:apogee_${dep}>)
    endforeach()
  endif()
  set_property(GLOBAL APPEND PROPERTY APOGEE_MODULES ${NAME})
  set_property(GLOBAL PROPERTY APOGEE_MODULE_DEPS_${NAME} ${ARG_DEPS})
  set_property(GLOBAL PROPERTY APOGEE_MODULE_EXTERNAL_${NAME} ${ARG_EXTERNAL})
endfunction()

# The external libraries a module links, for tests that link the module.
function(apogee_module_externals NAME OUT)
  get_property(ext GLOBAL PROPERTY APOGEE_MODULE_EXTERNAL_${NAME})
  set(${OUT} ${ext} PARENT_SCOPE)
endfunction()
