package com.example.notes;

import java.nio.file.Path;
import java.sql.SQLException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** Keeps notes in a SQLite database, {@code notes.database} ({@code notes.db} by default). */
@SpringBootApplication
public class NotesApplication {

    public static void main(String[] args) {
        SpringApplication.run(NotesApplication.class, args);
    }

    @Bean(destroyMethod = "close")
    NoteStore noteStore(@Value("${notes.database:notes.db}") Path database) throws SQLException {
        return NoteStore.open(database);
    }
}
