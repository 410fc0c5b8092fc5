// The panel's widget for a setting, drawn from its row in settings_table.h: a checkbox for a
// bool, a combo for a choice, a slider for a number. Core ImGui only; call between Begin/End on
// the UI thread.
#pragma once

#include "vhist/viewer/settings.h"
#include "vhist/viewer/settings_table.h"  // SettingId

#include <imgui.h>


namespace vhist::viewer {

// Draws the widget of the setting `id` (a row with a panel label), `width` pixels wide (0:
// ImGui's default; negative: up to that far from the right edge). Returns true when the user
// changed the value.
bool setting_widget(SettingId id, Settings& settings, float width = 0);

// printf-style text wrapped to the panel only at spaces: ImGui's own wrapping may also break after
// a '.' or ',', which cuts a figure such as "0.25%" in two.
void text_wrapped_at_spaces(const char* format, ...) IM_FMTARGS(1);

}  // namespace vhist::viewer
