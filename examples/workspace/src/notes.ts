import { readFile, writeFile } from 'node:fs/promises'

export interface Note {
  id: number
  title: string
  body: string
  tags: string[]
}

const store = new URL('../data/notes.json', import.meta.url)

export async function listNotes(): Promise<Note[]> {
  return JSON.parse(await readFile(store, 'utf8')) as Note[]
}

export async function saveNote(input: Omit<Note, 'id'>): Promise<Note> {
  const notes = await listNotes()
  // FIXME: ids collide after a note is deleted
  const note = { ...input, id: notes.length + 1 }
  await writeFile(store, JSON.stringify([...notes, note], null, 2))
  return note
}
