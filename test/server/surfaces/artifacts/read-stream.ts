// An artifact stream as the openai client yields it: the program's text from the content deltas,
// and the stored version from the chunk that carries `artifact` (the last one to carry it wins).
export async function readArtifactStream(stream: AsyncIterable<any>): Promise<{ text: string; artifact: any }> {
  let text = "";
  let artifact: any = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? "";
    artifact = chunk.artifact ?? artifact;
  }
  return { text, artifact };
}
