# The etcd backend (issue 17): a KvStore over etcd's v3 gRPC API.
#
# LEVELQL_WITH_ETCD=AUTO (the default) builds it when its Debian packages
# are installed (tools/install-deps.sh installs them): libgrpc++-dev,
# protobuf-compiler-grpc and golang-etcd-server-dev, whose .proto files
# (etcd's and those they import: gogoproto, google/api) are compiled here.
# ON requires them; OFF leaves it out, and opening an etcd:// URL then says
# how to build it.
set(LEVELQL_WITH_ETCD AUTO CACHE STRING "Build the etcd backend (AUTO, ON, OFF)")
set_property(CACHE LEVELQL_WITH_ETCD PROPERTY STRINGS AUTO ON OFF)

set(LEVELQL_ETCD_ENABLED OFF)
if(NOT LEVELQL_WITH_ETCD STREQUAL "OFF")
  set(_gocode /usr/share/gocode/src)
  set(_etcd_proto_root ${_gocode}/go.etcd.io/etcd)
  set(_gogo_root ${_gocode}/github.com/gogo/protobuf/gogoproto)
  set(_googleapis
      ${_gocode}/github.com/grpc-ecosystem/grpc-gateway/third_party/googleapis)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(LEVELQL_GRPC QUIET IMPORTED_TARGET grpc++ protobuf)
  endif()
  find_program(PROTOC_PROGRAM protoc)
  find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin)
  set(_missing "")
  if(NOT LEVELQL_GRPC_FOUND)
    string(APPEND _missing " libgrpc++-dev")
  endif()
  if(NOT PROTOC_PROGRAM OR NOT GRPC_CPP_PLUGIN)
    string(APPEND _missing " protobuf-compiler-grpc")
  endif()
  if(NOT EXISTS ${_etcd_proto_root}/etcdserver/etcdserverpb/rpc.proto)
    string(APPEND _missing " golang-etcd-server-dev")
  endif()
  if(_missing STREQUAL "")
    set(LEVELQL_ETCD_ENABLED ON)
  elseif(LEVELQL_WITH_ETCD STREQUAL "ON")
    message(FATAL_ERROR "LEVELQL_WITH_ETCD=ON needs:${_missing}")
  else()
    message(STATUS "etcd backend off (missing:${_missing}; "
                   "tools/install-deps.sh installs them)")
  endif()
endif()

if(LEVELQL_ETCD_ENABLED)
  # protoc sees the files under the import paths they use: "etcd/...",
  # "gogoproto/gogo.proto", "google/api/...".
  set(_protos
    etcd/etcdserver/etcdserverpb/rpc.proto
    etcd/mvcc/mvccpb/kv.proto
    etcd/auth/authpb/auth.proto
    gogoproto/gogo.proto
    google/api/annotations.proto
    google/api/http.proto)
  set(_gen ${CMAKE_CURRENT_BINARY_DIR}/etcd_proto)
  set(_sources "")
  foreach(_proto ${_protos})
    string(REGEX REPLACE "\\.proto$" "" _stem ${_proto})
    list(APPEND _sources ${_gen}/${_stem}.pb.cc)
  endforeach()
  list(APPEND _sources ${_gen}/etcd/etcdserver/etcdserverpb/rpc.grpc.pb.cc)
  add_custom_command(
    OUTPUT ${_sources}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_gen}
    COMMAND ${PROTOC_PROGRAM}
      -Ietcd=${_etcd_proto_root} -Igogoproto=${_gogo_root} -I${_googleapis}
      -I/usr/include --cpp_out=${_gen}
      ${_protos}
    COMMAND ${PROTOC_PROGRAM}
      -Ietcd=${_etcd_proto_root} -Igogoproto=${_gogo_root} -I${_googleapis}
      -I/usr/include --grpc_out=${_gen}
      --plugin=protoc-gen-grpc=${GRPC_CPP_PLUGIN}
      etcd/etcdserver/etcdserverpb/rpc.proto
    DEPENDS ${_etcd_proto_root}/etcdserver/etcdserverpb/rpc.proto
    COMMENT "Generating etcd's gRPC client from its .proto files")
  add_library(levelql_etcd_proto STATIC ${_sources})
  target_include_directories(levelql_etcd_proto PUBLIC $<BUILD_INTERFACE:${_gen}>)
  target_link_libraries(levelql_etcd_proto PUBLIC PkgConfig::LEVELQL_GRPC)
  # Generated code: not ours to warn about.
  target_compile_options(levelql_etcd_proto PRIVATE -w)

  add_library(levelql_etcd STATIC
    engine/storage/etcd/etcd_client.cc
    engine/storage/etcd/etcd_store.cc)
  target_link_libraries(levelql_etcd PUBLIC levelql_base levelql_indexes
    PRIVATE levelql_etcd_proto)
  target_include_directories(levelql_etcd PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
endif()
