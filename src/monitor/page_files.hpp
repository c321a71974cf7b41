#pragma once
// The monitor's page, embedded at build time by embed_page.cmake (the generated page_files.cpp).

#include <span>
#include <string_view>

namespace battlecore::monitor {

/// One file of the page: its path under the server root, its MIME type and its bytes.
struct PageFile {
  std::string_view path;
  std::string_view mime_type;
  std::string_view content;
};

/// Every file of the page, index.html first.
std::span<const PageFile> page_files();

}  // namespace battlecore::monitor
