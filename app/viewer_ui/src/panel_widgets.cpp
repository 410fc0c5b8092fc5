#include "vhist/viewer/panel_widgets.h"

#include "vhist/viewer/settings_table.h"

#include <imgui.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace vhist::viewer {

bool setting_widget(SettingId id, Settings& settings, float width) {
  const SettingRow* row = &setting_row(id);
  if (!row->field || row->label.empty()) return false;
  const std::string label(row->label);
  if (width != 0) ImGui::SetNextItemWidth(width);
  const std::vector<std::string_view> names = choice_names(*row, settings);
  return std::visit(
      [&](auto* field) {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          return ImGui::Checkbox(label.c_str(), field);
        } else if constexpr (std::is_same_v<T, float>) {
          const std::string format = row->format.empty() ? "%.2f" : std::string(row->format);
          return ImGui::SliderFloat(label.c_str(), field, static_cast<float>(row->min), static_cast<float>(row->max),
                                    format.c_str());
        } else if constexpr (std::is_enum_v<T>) {
          std::vector<std::string> texts;
          for (std::size_t i = 0; i < names.size(); ++i) {
            texts.emplace_back(i < row->choice_labels.size() ? row->choice_labels[i] : names[i]);
          }
          std::vector<const char*> items;
          for (const auto& t : texts) items.push_back(t.c_str());
          int index = static_cast<int>(*field);
          if (!ImGui::Combo(label.c_str(), &index, items.data(), static_cast<int>(items.size()))) return false;
          *field = static_cast<T>(index);
          return true;
        } else {
          return false;
        }
      },
      row->field(settings));
}

void text_wrapped_at_spaces(const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  const float right = ImGui::GetContentRegionAvail().x;
  const float space = ImGui::CalcTextSize(" ").x;
  float x = 0;
  // Each word (run of non-spaces) is placed whole; the spaces before it are kept within a line.
  for (const char* p = text; *p != '\0';) {
    const char* word = p;
    while (*word == ' ') ++word;
    if (*word == '\0') break;
    const char* end = word;
    while (*end != '\0' && *end != ' ') ++end;
    const float gap = x == 0 ? 0 : static_cast<float>(word - p) * space;
    const float width = ImGui::CalcTextSize(word, end).x;
    if (x != 0 && x + gap + width <= right) {
      ImGui::SameLine(0, gap);
      x += gap + width;
    } else {
      x = width;
    }
    ImGui::TextUnformatted(word, end);
    p = end;
  }
}

}  // namespace vhist::viewer
