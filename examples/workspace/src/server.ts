import { createServer } from 'node:http'
import { listNotes, saveNote } from './notes.js'

// TODO: read the port from the environment
const port = 8080

createServer(async (request, response) => {
  if (request.method === 'GET' && request.url === '/notes') {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify(await listNotes()))
    return
  }
  if (request.method === 'POST' && request.url === '/notes') {
    let body = ''
    for await (const chunk of request) body += chunk
    const note = await saveNote(JSON.parse(body))
    response.statusCode = 201
    response.end(JSON.stringify(note))
    return
  }
  response.statusCode = 404
  response.end()
}).listen(port)
